import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import type { Logger } from 'pino';
import { ParleyError } from '../errors.ts';

/** The largest JSON body a Parley route reads unless it says otherwise. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/** The body limit of routes that take a message (150,000 characters of any script, and the rest). */
export const MESSAGE_BODY_LIMIT = 640 * 1024;

/**
 * The helpdesk routes' error body (`bad_request_error`): a description, and one entry per problem.
 *
 * @example { description: 'No contact …', errors: [{ field: '', message: 'No contact …', code: 'not_found' }] }
 */
export function deskErrorBody(error: ParleyError): {
  description: string;
  errors: { field: string; message: string; code: string }[];
} {
  const problems = (error.details as { problems?: { field: string; message: string }[] } | undefined)?.problems;
  return {
    description: error.message,
    errors: problems?.length
      ? problems.map((problem) => ({ field: problem.field, message: problem.message, code: error.code }))
      : [{ field: '', message: error.message, code: error.code }],
  };
}

/** HSTS for answers over https: a year, subdomains included (RFC 6797). */
const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/**
 * The first middleware of both apps. It puts the headers every answer carries (issue 12):
 * `X-Content-Type-Options: nosniff`, so no answer is ever read as a script or a page it is not,
 * and over https `Strict-Transport-Security`. `ctx.secure` honours X-Forwarded-Proto only when
 * the app trusts proxies (`app.proxy`); otherwise it is the socket's own TLS, and a browser ignores
 * HSTS that comes over http anyway (RFC 6797 §8.1). The headers are set before anything runs, so
 * error answers carry them too.
 *
 * It refuses a path with a malformed %-escape (`/inboxes/%E0%A4%A`) as 400 `invalid_request`
 * before any route sees it, so no route decodes one and fails later.
 *
 * Then it turns every error into the wire shape of its route: `/v1` routes answer `{error: {code,
 * message}}`, helpdesk routes (those `isDeskRoute` picks) the `bad_request_error` shape. A
 * `ParleyError` goes out as it is; anything else is a bug: it is logged with its cause and the
 * client sees a generic 500.
 */
export function errorBoundary(logger: Logger, isDeskRoute: (path: string) => boolean = () => false): Middleware {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (ctx.secure) ctx.set('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    try {
      // A malformed %-escape throws URIError here: 400 invalid_request (toParleyError).
      decodeURIComponent(ctx.path);
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new ParleyError('not_found', `No route for ${ctx.method} ${ctx.path}.`);
      }
    } catch (caught) {
      const error = toParleyError(caught);
      if (error.code === 'internal')
        logger.error({ err: caught, method: ctx.method, path: ctx.path }, 'unexpected error');
      ctx.status = error.status;
      if (error.retryAfterS !== undefined) ctx.set('Retry-After', String(error.retryAfterS));
      ctx.body = isDeskRoute(ctx.path) ? deskErrorBody(error) : error.toBody();
    }
  };
}

/**
 * The one mapping from anything thrown to the error a client is told, for HTTP and socket acks
 * alike: a `ParleyError` as it is, a router's 405/501 as `method_not_allowed`, a malformed
 * %-escape (URIError, from decoding what the client sent) as `invalid_request`, anything else
 * `internal` (a bug; the caller logs the cause).
 */
export function toParleyError(caught: unknown): ParleyError {
  if (caught instanceof ParleyError) return caught;
  if (caught instanceof URIError)
    return new ParleyError(
      'invalid_request',
      'The request has a malformed %-escape (a % not followed by UTF-8 written as %XX).',
    );
  // @koa/router's allowedMethods throws http-errors with a status; keep their meaning.
  const status = (caught as { status?: unknown } | null)?.status;
  if (status === 405) return new ParleyError('method_not_allowed', 'This route does not take that method.');
  if (status === 501) return new ParleyError('method_not_allowed', 'That method is not implemented.');
  return new ParleyError('internal', 'Something went wrong on our side. It has been logged.');
}

/** Validates `input` with `schema`; a mismatch is a 400 `invalid_request` listing each problem. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, what = 'request body'): z.output<S> {
  // PostgreSQL text cannot hold U+0000; refused here, for every input, rather than failing in the store.
  const nul = nulPath(input);
  if (nul !== undefined) {
    throw new ParleyError(
      'invalid_request',
      `The ${what} is not valid: ${nul || '(root)'}: text may not contain the NUL character (U+0000).`,
      { problems: [{ field: nul || '(root)', message: 'contains U+0000' }] },
    );
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => ({
    field: issue.path.join('.') || '(root)',
    message: issue.message,
  }));
  const summary = problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
  throw new ParleyError('invalid_request', `The ${what} is not valid: ${summary}.`, { problems });
}

/** Where in `value` a string (or key) holds U+0000, as a dotted path; undefined when nowhere. */
function nulPath(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (typeof value !== 'object' || value === null || depth > 32) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return at;
    const found = nulPath(inner, at, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Reads the request body as JSON (at most `limit` bytes) and validates it with `schema`. With
 * `form`, an HTML form's body (`application/x-www-form-urlencoded`) is taken too: each field once,
 * as text (a field named twice is refused).
 */
export async function readJson<S extends z.ZodType>(
  ctx: Context,
  schema: S,
  limit = DEFAULT_BODY_LIMIT,
  form = false,
): Promise<z.output<S>> {
  const raw = await readRawBody(ctx, limit);
  if (raw.length === 0) return parseWith(schema, {});
  if (form && ctx.is('application/x-www-form-urlencoded')) return parseWith(schema, formFields(raw.toString('utf8')));
  if (!ctx.is('application/json') && !ctx.is('+json')) {
    throw new ParleyError(
      'unsupported_media_type',
      `Send the body as JSON with Content-Type: application/json${form ? ' (or as a form, application/x-www-form-urlencoded)' : ''}.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ParleyError('invalid_json', 'The request body is not valid JSON.');
  }
  return parseWith(schema, parsed);
}

function formFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(fields, name))
      throw new ParleyError('invalid_request', `The form field ${name} is given twice.`, {
        problems: [{ field: name, message: 'given twice' }],
      });
    fields[name] = value;
  }
  return fields;
}

// A body can be read once from the socket; middleware that needs it first (idempotency,
// signatures) and the handler after it share this copy.
const rawBodies = new WeakMap<Context, Buffer>();

/** Reads the raw request body, refusing more than `limit` bytes without reading them all. */
export async function readRawBody(ctx: Context, limit = DEFAULT_BODY_LIMIT): Promise<Buffer> {
  const cached = rawBodies.get(ctx);
  if (cached) {
    if (cached.length > limit) throw tooLarge(limit);
    return cached;
  }
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks);
  rawBodies.set(ctx, body);
  return body;
}

function tooLarge(limit: number): ParleyError {
  return new ParleyError('payload_too_large', `The request body is larger than ${limit} bytes.`);
}

/** Validates the query string with `schema`. */
export function readQuery<S extends z.ZodType>(ctx: Context, schema: S): z.output<S> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.query)) {
    if (Array.isArray(value))
      throw new ParleyError('invalid_request', `The query parameter ${name} is given more than once.`);
    if (value !== undefined) query[name] = value;
  }
  return parseWith(schema, query, 'query string');
}

/** The bearer token of the request, or a 401. */
export function bearerToken(ctx: Context): string {
  const header = ctx.get('authorization');
  const match = /^Bearer ([\x21-\x7e]{1,4096})$/.exec(header);
  if (!match?.[1]) {
    throw new ParleyError('unauthorized', 'Send your credential as Authorization: Bearer <key or token>.');
  }
  return match[1];
}
