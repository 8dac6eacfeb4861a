import { Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import { ParleyError, randomToken } from '../shared/index.ts';
import { MESSAGE_BODY_LIMIT, readMultipart, readRawBody, type Sql } from '../shared/server/index.ts';
import type { EngineState } from './auth.ts';
import { subjectOfAnswer, subjectOfRequest } from './idempotency-subject.ts';
import {
  claimKey,
  forgetClaim,
  keepAnswer,
  keptAnswer,
  pruneKeys,
  renewClaim,
  type KeyClaim,
} from './store/idempotency-keys.ts';

const KEPT_MS = 24 * 3600_000;
// A first request is held by its process for LEASE_MS, renewed every RENEW_MS while it runs: when
// the process dies, a retry takes the key over within LEASE_MS (issue 34). A record written before
// leases existed counts as abandoned after ABANDONED_MS.
const LEASE_MS = 6_000;
const RENEW_MS = 2_000;
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
  /** How long a running first request holds its key without a renewal (tests shorten it). */
  leaseMs?: number;
  /** How often a running first request renews its hold. */
  renewMs?: number;
}

/** This process's name on the keys it holds: the process id and a random part (a restarted process is another). */
const processHolder = () => `${process.pid}:${randomToken(12)}`;

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

/**
 * `Idempotency-Key` on a POST: the first answer (status and body) is kept 24 hours per key, route
 * and credential. The same key with the same body replays it (`Idempotent-Replayed: true`); with a
 * different body it is a 422; while the first is still running, a 409. Server errors are not kept,
 * so a retry after one runs again. A secret in the answer (a signing secret, a session or voice
 * token) is never kept: the replay shows WITHHELD in its place. Records older than a day are
 * deleted once an hour. A first request holds its key while its process lives: a retry after
 * the process died takes the key over within seconds.
 */
export function idempotency(
  sql: Sql,
  now: () => Date,
  { multipartLimit = MESSAGE_BODY_LIMIT, leaseMs = LEASE_MS, renewMs = RENEW_MS }: IdempotencyOptions = {},
): Middleware<EngineState> {
  const holder = processHolder();
  const times = { keptMs: KEPT_MS, leaseMs, abandonedMs: ABANDONED_MS };
  let prunedAt = 0;
  return async (ctx, next) => {
    if (now().getTime() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = now().getTime();
      await pruneKeys(sql, new Date(prunedAt - KEPT_MS));
    }
    const key = ctx.get('idempotency-key');
    if (ctx.method !== 'POST' || !key) return next();
    if (!KEY_PATTERN.test(key))
      throw new ParleyError('invalid_request', 'Idempotency-Key must be 1 to 255 printable characters.');
    // The largest body any route takes; the route's own limit is checked when it reads the body.
    const requestHash = await fingerprint(ctx, multipartLimit);
    const claim: KeyClaim = { keyId: ctx.state.caller.keyId, key, route: `${ctx.method} ${ctx.path}`, at: now() };
    const json = Boolean(ctx.is('application/json'));
    const subject = subjectOfRequest(ctx.path, json ? await readRawBody(ctx, MESSAGE_BODY_LIMIT) : undefined, json);
    if (!(await claimKey(sql, { ...claim, requestHash, holder, subject }, times))) {
      const first = await keptAnswer(sql, claim, requestHash);
      ctx.status = first.status;
      ctx.type = 'application/json';
      ctx.body = first.body ?? '';
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    const keep = (status: number, body: unknown) =>
      keepAnswer(sql, claim, {
        status,
        body: body === undefined ? null : JSON.stringify(withoutSecrets(body)),
        subject: subjectOfAnswer(body),
      });
    // A renewal that fails (the database away a moment) is made again at the next tick; if none
    // succeeds the lease lapses, and a retry may run: the same as after this process's death.
    const renewal = setInterval(() => {
      renewClaim(sql, claim, new Date(now().getTime() + leaseMs)).catch(() => undefined);
    }, renewMs);
    try {
      await next();
    } catch (error) {
      clearInterval(renewal);
      if (error instanceof ParleyError && error.status < 500) await keep(error.status, error.toBody());
      else await forgetClaim(sql, claim);
      throw error;
    }
    clearInterval(renewal);
    // A streamed answer cannot be replayed: a retry runs again (a message_id keeps a message send safe on its own).
    if (ctx.status >= 500 || ctx.body instanceof Readable) await forgetClaim(sql, claim);
    else await keep(ctx.status, ctx.body);
  };
}
