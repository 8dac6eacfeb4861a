/**
 * The one error model of Parley. Every error a client can see carries a code from this closed
 * union; the HTTP status follows from the code. `/v1` routes answer
 * `{ error: { code, message, details? } }`.
 */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  account_suspended: 403,
  origin_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_state: 409,
  idempotency_key_in_use: 409,
  token_used: 409,
  call_ended: 409,
  payload_too_large: 413,
  storage_full: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  unprocessable: 422,
  not_available: 422,
  unknown_interview: 422,
  rate_limited: 429,
  internal: 500,
  upstream_unavailable: 503,
  not_configured: 503,
  starting: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The body of every `/v1` error answer. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

/**
 * An error that is meant for the client: its code and message go on the wire as they are.
 *
 * @example throw new ParleyError('not_found', 'No conversation cnv_123 in this account.')
 */
export class ParleyError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;
  /** Seconds the client should wait before it tries again; sent as Retry-After. */
  retryAfterS: number | undefined;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'ParleyError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = details;
  }

  /** Tells the client when to try again (Retry-After, whole seconds, at least 1). */
  retryAfter(seconds: number): this {
    this.retryAfterS = Math.max(1, Math.ceil(seconds));
    return this;
  }

  toBody(): ErrorBody {
    return this.details === undefined
      ? { error: { code: this.code, message: this.message } }
      : { error: { code: this.code, message: this.message, details: this.details } };
  }
}

/** True when `value` is an error body of the `/v1` shape (useful to clients of the API). */
export function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}
