import { describe, expect, it } from 'vitest';
import { tokenExpiry } from './session.ts';

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe("a verified customer's token from the page", () => {
  it('expires when its payload says', () => {
    const token = `wst_${base64url({ alg: 'EdDSA' })}.${base64url({ exp: 1_900_000_000 })}.signature`;
    expect(tokenExpiry(token)).toBe(new Date(1_900_000_000 * 1000).toISOString());
  });

  it('is taken as good for an hour when its payload cannot be read (the BFF decides)', () => {
    const before = Date.now();
    const expires = Date.parse(tokenExpiry('wst_not-a-jwt'));
    expect(expires).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3_600_000);
  });
});
