import { describe, expect, it } from 'vitest';
import { ClientError, deskError, v1Error } from './client-error.ts';

describe('the error a browser client sees', () => {
  it("reads a /v1 refusal's code and message, with the wait of its Retry-After", () => {
    const error = v1Error(429, { error: { code: 'rate_limited', message: 'Too many requests.' } }, 30);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfterS: 30 });
    expect(error.message).toBe('Too many requests.');
  });

  it("reads a helpdesk refusal's code from its first problem and its message from the description", () => {
    const errors = [{ field: '', message: 'Sign in again.', code: 'unauthorized' }];
    const error = deskError(401, { description: 'Sign in again.', errors }, 'Refused.');
    expect(error).toMatchObject({ status: 401, code: 'unauthorized', message: 'Sign in again.' });
  });

  it("says internal when the body has no error in it (a proxy's page, or nothing)", () => {
    expect(v1Error(502, undefined)).toMatchObject({ status: 502, code: 'internal', message: 'HTTP 502' });
    const error = deskError(500, null, 'The helpdesk answered 500.');
    expect(error).toMatchObject({ code: 'internal', message: 'The helpdesk answered 500.' });
  });
});
