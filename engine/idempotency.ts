import { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import { ParleyError } from '../shared/index.ts';
import { MESSAGE_BODY_LIMIT, readMultipart, readRawBody, type Sql } from '../shared/server/index.ts';
import type { EngineState } from './auth.ts';

const KEPT_MS = 24 * 3600_000;
// A first request still "running" after this long died with its process; a retry may take over.
const ABANDONED_MS = 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const PRUNE_EVERY_MS = 3600_000;
/** What a kept answer shows instead of a secret: secrets are shown once, and never stored. */
export const WITHHELD = '[shown once]';
const SECRET_VALUE = /^(whsec_|wst_|vst_|service_(test|live)_|pk_(test|live)_)/;

/** The answer as it may be kept: every string that is a secret or a token replaced by WITHHELD. */
export function withoutSecrets(value: unknown): unknown {
  if (typeof value === 'string') return SECRET_VALUE.test(value) ? WITHHELD : value;
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, withoutSecrets(inner)]));
  return value;
}

export interface IdempotencyOptions {
  /** The largest multipart body a route takes (an upload): such a request is read up to this to be recognised. */
  multipartLimit?: number;
}

/**
 * What makes two requests the same. For JSON, the body's bytes. For a multipart upload, its fields
 * and files, not its bytes: a client that sends the form again builds it with a new boundary, and
 * that retry is the same request. A form that cannot be read is taken by its bytes (the route
 * refuses it with its own error).
 */
async function fingerprint(ctx: Parameters<Middleware<EngineState>>[0], multipartLimit: number): Promise<string> {
  const hash = () => createHash('sha256');
  if (!ctx.is('multipart/form-data'))
    return hash()
      .update(await readRawBody(ctx, MESSAGE_BODY_LIMIT))
      .digest('hex');
  try {
    const form = await readMultipart(ctx, multipartLimit);
    const fields = Object.entries(form.fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const files = form.files.map((file) => [file.field, file.name, hash().update(file.bytes).digest('hex')]);
    return hash().update(JSON.stringify({ fields, files })).digest('hex');
  } catch (error) {
    if (!(error instanceof ParleyError) || error.code === 'payload_too_large') throw error;
    return hash()
      .update(await readRawBody(ctx, multipartLimit))
      .digest('hex');
  }
}

/** The record a request claims: its credential's key, the Idempotency-Key, the route, and when it was claimed. */
interface KeyClaim {
  keyId: string;
  key: string;
  route: string;
  at: Date;
}

/**
 * One statement claims the key: a new one, or one whose record is out of date (older than a day, or
 * a first request abandoned while running) is taken over in place. False when another request holds it.
 */
async function claimKey(sql: Sql, { keyId, key, route, at }: KeyClaim, requestHash: string): Promise<boolean> {
  const claimed = await sql.query(
    `INSERT INTO idempotency_keys (key_id, idempotency_key, route, request_sha256, state, created_at)
       VALUES ($1, $2, $3, $4, 'running', $5)
       ON CONFLICT (key_id, idempotency_key, route) DO UPDATE
         SET request_sha256 = EXCLUDED.request_sha256, state = 'running', status = NULL, body = NULL, created_at = EXCLUDED.created_at
         WHERE idempotency_keys.created_at < $6 OR (idempotency_keys.state = 'running' AND idempotency_keys.created_at < $7)
       RETURNING 1`,
    [keyId, key, route, requestHash, at, new Date(at.getTime() - KEPT_MS), new Date(at.getTime() - ABANDONED_MS)],
  );
  return claimed.length > 0;
}

/** The first request's answer, to replay; refused while it runs, or when this request is not the same. */
async function keptAnswer(
  sql: Sql,
  { keyId, key, route }: KeyClaim,
  requestHash: string,
): Promise<{ status: number; body: string | null }> {
  const [first] = await sql.query<{ request_sha256: string; state: string; status: number; body: string | null }>(
    'SELECT request_sha256, state, status, body FROM idempotency_keys WHERE key_id = $1 AND idempotency_key = $2 AND route = $3',
    [keyId, key, route],
  );
  if (!first)
    throw new ParleyError(
      'idempotency_key_in_use',
      'A request with this Idempotency-Key is being settled; retry in a moment.',
    );
  if (first.request_sha256 !== requestHash) {
    throw new ParleyError(
      'idempotency_key_reused',
      'This Idempotency-Key was used with a different request body. Use a new key for a new request.',
    );
  }
  if (first.state === 'running')
    throw new ParleyError(
      'idempotency_key_in_use',
      'The first request with this Idempotency-Key is still running; retry after it finishes.',
    );
  return first;
}

// Both match the claim's time too: a slow first request that a retry took over as abandoned
// must not overwrite or delete the retry's record.
const keepAnswer = (sql: Sql, { keyId, key, route, at }: KeyClaim, status: number, body: unknown) =>
  sql.query(
    "UPDATE idempotency_keys SET state = 'done', status = $5, body = $6 WHERE key_id = $1 AND idempotency_key = $2 AND route = $3 AND created_at = $4",
    [keyId, key, route, at, status, body === undefined ? null : JSON.stringify(withoutSecrets(body))],
  );
const forgetClaim = (sql: Sql, { keyId, key, route, at }: KeyClaim) =>
  sql.query(
    'DELETE FROM idempotency_keys WHERE key_id = $1 AND idempotency_key = $2 AND route = $3 AND created_at = $4',
    [keyId, key, route, at],
  );

/**
 * `Idempotency-Key` on a POST: the first answer (status and body) is kept 24 hours per key, route
 * and credential. The same key with the same body replays it (`Idempotent-Replayed: true`); with a
 * different body it is a 422; while the first is still running, a 409. Server errors are not kept,
 * so a retry after one runs again. A secret in the answer (a signing secret, a session or voice
 * token) is never kept: the replay shows WITHHELD in its place. Records older than a day are
 * deleted once an hour.
 */
export function idempotency(
  sql: Sql,
  now: () => Date,
  { multipartLimit = MESSAGE_BODY_LIMIT }: IdempotencyOptions = {},
): Middleware<EngineState> {
  let prunedAt = 0;
  return async (ctx, next) => {
    if (now().getTime() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = now().getTime();
      await sql.query('DELETE FROM idempotency_keys WHERE created_at < $1', [new Date(prunedAt - KEPT_MS)]);
    }
    const key = ctx.get('idempotency-key');
    if (ctx.method !== 'POST' || !key) return next();
    if (!KEY_PATTERN.test(key))
      throw new ParleyError('invalid_request', 'Idempotency-Key must be 1 to 255 printable characters.');
    // The largest body any route takes; the route's own limit is checked when it reads the body.
    const requestHash = await fingerprint(ctx, multipartLimit);
    const claim: KeyClaim = { keyId: ctx.state.caller.keyId, key, route: `${ctx.method} ${ctx.path}`, at: now() };
    if (!(await claimKey(sql, claim, requestHash))) {
      const first = await keptAnswer(sql, claim, requestHash);
      ctx.status = first.status;
      ctx.type = 'application/json';
      ctx.body = first.body ?? '';
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    try {
      await next();
    } catch (error) {
      if (error instanceof ParleyError && error.status < 500)
        await keepAnswer(sql, claim, error.status, error.toBody());
      else await forgetClaim(sql, claim);
      throw error;
    }
    // A streamed answer cannot be replayed: a retry runs again (a message_id keeps a message send safe on its own).
    if (ctx.status >= 500 || ctx.body instanceof Readable) await forgetClaim(sql, claim);
    else await keepAnswer(sql, claim, ctx.status, ctx.body);
  };
}
