import { describe, expect, it } from 'vitest';
import { handshakeRefusal, refusalCode } from './handshake.ts';

describe('handshake refusals', () => {
  it('carry their code as data, which the client reads back without matching words', () => {
    const refusal = handshakeRefusal('account_suspended', 'This account is suspended.');
    expect(refusal.message).toBe('account_suspended: This account is suspended.');
    expect(refusalCode(refusal)).toBe('account_suspended');
  });

  it('give no code for a failure that is not a refusal: the network, an error with other data, nothing', () => {
    expect(refusalCode(new Error('unauthorized: looks like one but carries no data'))).toBeUndefined();
    expect(refusalCode(Object.assign(new Error('timeout'), { data: 'text' }))).toBeUndefined();
    expect(refusalCode(undefined)).toBeUndefined();
  });
});
