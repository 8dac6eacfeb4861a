import { describe, expect, it } from 'vitest';
import { EngineCallError } from './engine-client.ts';

describe('EngineCallError', () => {
  it('is retryable when the first call with the same Idempotency-Key is still running at the engine (409 idempotency_key_in_use)', () => {
    // After the engine or its database crashed mid-call, its key stays "running" until the engine frees it; the relay must wait, not fail the message.
    expect(new EngineCallError('still running', { status: 409, code: 'idempotency_key_in_use' }).retryable).toBe(true);
  });

  it('is final for the other refusals, and retryable when the engine was unreachable, failed or asked to slow down', () => {
    expect(new EngineCallError('closed', { status: 409, code: 'invalid_state' }).retryable).toBe(false);
    expect(new EngineCallError('bad', { status: 400, code: 'invalid_request' }).retryable).toBe(false);
    expect(new EngineCallError('down', { status: 0, code: 'unreachable' }).retryable).toBe(true);
    expect(new EngineCallError('slow down', { status: 429, code: 'rate_limited' }).retryable).toBe(true);
    expect(new EngineCallError('failed', { status: 500, code: 'internal' }).retryable).toBe(true);
  });
});
