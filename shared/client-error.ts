/**
 * The one error model of Parley's browser clients (the widget and the agent console). Zod-free and
 * browser-safe: it imports nothing but the codes of `errors.ts`, as a type.
 */
import type { ErrorCode } from './errors.ts';

/**
 * The codes a client can see: the server's own (`ErrorCode`), and two it gives itself when no
 * answer came: the server could not be reached, or the call was stopped.
 */
export type ClientErrorCode = ErrorCode | 'unreachable' | 'aborted';

/**
 * A call to Parley's server that failed, with the stable code of its error body. `/v1` routes answer
 * `{ error: { code, message } }`, helpdesk routes `bad_request_error` (`{ description, errors: [{ code }] }`);
 * both become this one error.
 *
 * @example if (error instanceof ClientError && error.code === 'rate_limited') waitFor(error.retryAfterS)
 */
export class ClientError extends Error {
  constructor(
    /** The HTTP status; 0 when no answer came. */
    readonly status: number,
    readonly code: ClientErrorCode,
    message: string,
    /** From Retry-After: how many seconds to wait before the same call can succeed. */
    readonly retryAfterS?: number,
    /** The refusal's `details`, as the BFF sent them (a rate limit's: the inbox's public name and e-mail). */
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/**
 * The error a `/v1` route's refusal stands for, read from its body; a body without one (a proxy's
 * page, nothing at all) is `internal` with the status.
 *
 * @example throw v1Error(429, { error: { code: 'rate_limited', message: 'Too many requests.' } }, 30)
 */
export function v1Error(status: number, body: unknown, retryAfterS?: number): ClientError {
  const error = (body as { error?: { code: ClientErrorCode; message: string; details?: unknown } } | null | undefined)
    ?.error;
  return new ClientError(
    status,
    error?.code ?? 'internal',
    error?.message ?? `HTTP ${status}`,
    retryAfterS,
    error?.details,
  );
}

/**
 * The error a helpdesk route's refusal (`bad_request_error`) stands for, read from its body;
 * `fallback` says it when the body has no description.
 *
 * @example
 * const errors = [{ field: '', message: 'Sign in again.', code: 'unauthorized' }];
 * throw deskError(401, { description: 'Sign in again.', errors }, 'The helpdesk refused.');
 */
export function deskError(status: number, body: unknown, fallback: string): ClientError {
  const refusal = body as { description?: string; errors?: { code?: ClientErrorCode }[] } | null | undefined;
  return new ClientError(status, refusal?.errors?.[0]?.code ?? 'internal', refusal?.description ?? fallback);
}
