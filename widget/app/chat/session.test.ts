import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetSession } from '../../../shared/index.ts';
import type { Api } from '../api.ts';
import type { SiteStorage } from '../storage.ts';
import { createSessions, tokenExpiry } from './session.ts';

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

describe('the session of a returning visitor', () => {
  const stored = (expiresInMs: number): WidgetSession => ({
    token: 'wst_stored',
    ttl_s: 3600,
    expires_at: new Date(Date.now() + expiresInMs).toISOString(),
    customer_ref: 'c_1',
    verified: false,
  });
  // The widget's storage as a Map (its own tests run it on localStorage), and Web Locks counted:
  // Node has neither. No request may be made: the api has no methods.
  function sessionsWith(session: WidgetSession) {
    const values = new Map([['session', JSON.stringify(session)]]);
    const storage = {
      get: (name: string) => values.get(name),
      getJson: <T>(name: string, fallback: T): T =>
        values.has(name) ? (JSON.parse(values.get(name)!) as T) : fallback,
    } as unknown as SiteStorage;
    return createSessions({} as Api, storage, 'pk_test', undefined);
  }
  const locks = { requested: 0 };
  const realNavigator = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  beforeAll(() => {
    const request = () => {
      locks.requested += 1;
      return Promise.reject(new Error('no lock here'));
    };
    Object.defineProperty(globalThis, 'navigator', { value: { locks: { request } }, configurable: true });
  });
  afterAll(() => {
    if (realNavigator) Object.defineProperty(globalThis, 'navigator', realNavigator);
  });

  it('is taken from the device at once, without the lock, while fresh', async () => {
    const session = stored(3_600_000);
    expect(await sessionsWith(session).ensure()).toEqual(session);
    expect(locks.requested).toBe(0);
  });

  it('goes through the lock when it is about to expire (a new one is made there)', async () => {
    await sessionsWith(stored(60_000))
      .ensure()
      .catch(() => undefined);
    expect(locks.requested).toBe(1);
  });
});
