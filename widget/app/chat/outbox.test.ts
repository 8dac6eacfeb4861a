import { describe, expect, it } from 'vitest';
import { ClientError } from '../../../shared/client-error.ts';
import { nextTry } from './outbox.ts';

const answered = (status: number) =>
  new ClientError(status, status === 429 ? 'rate_limited' : 'internal', `HTTP ${status}`);

describe('what follows a send that failed', () => {
  it('drops a message refused for good (a 4xx other than 429): the same send would fail again', () => {
    expect(nextTry(answered(400), 0)).toBeUndefined();
    expect(nextTry(answered(404), 1)).toBeUndefined();
    expect(nextTry(answered(413), 0)).toBeUndefined();
  });

  it('waits 5 s without counting a try on network trouble, a 429, or a gateway that restarts (502-504)', () => {
    expect(nextTry(new TypeError('Failed to fetch'), 0)).toEqual({ tries: 0, waitMs: 5_000 });
    expect(nextTry(answered(429), 1)).toEqual({ tries: 1, waitMs: 5_000 });
    for (const status of [502, 503, 504]) expect(nextTry(answered(status), 2)).toEqual({ tries: 2, waitMs: 5_000 });
  });

  it("counts the server's own failure and tries again after 1 s, then 2 s, so 'Not sent' shows within seconds", () => {
    expect(nextTry(answered(500), 0)).toEqual({ tries: 1, waitMs: 1_000 });
    expect(nextTry(answered(500), 1)).toEqual({ tries: 2, waitMs: 2_000 });
    expect(nextTry(answered(501), 0)).toEqual({ tries: 1, waitMs: 1_000 });
  });

  it("stops after the server's third failure and keeps the message for the customer's Retry", () => {
    expect(nextTry(answered(500), 2)).toEqual({ tries: 3 });
    expect(nextTry(answered(507), 2)).toEqual({ tries: 3 });
  });
});
