import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { randomToken } from '../../../shared/index.ts';
import type { Queryable } from '../../../shared/server/index.ts';

/** Tokens of the helpdesk (platform, access, session, sign-in link) are kept only as SHA-256 hashes. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * A person's pubsub_token for `/cable` (Chatwoot's `RoomChannel` with account_id and user_id): derived
 * from the access token or session it goes with, shown beside it, and kept only as its hash, so it
 * works exactly as long as that token does (bff/cable/README.md).
 */
export const personPubsubToken = (token: string): string =>
  createHash('sha256').update(`parley-pubsub:${token}`).digest('hex');

/** A new token: 32 characters of base62, about 190 random bits. */
export const newToken = (): string => randomToken(32);

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;

/** A password kept as `scrypt$<salt>$<hash>` (hex). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('hex')}$${(await scryptAsync(password, salt, 32)).toString('hex')}`;
}

export async function passwordMatches(password: string, stored: string | null): Promise<boolean> {
  const [scheme, salt, hash] = (stored ?? '').split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const actual = await scryptAsync(password, Buffer.from(salt, 'hex'), 32);
  const expected = Buffer.from(hash, 'hex');
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}

/** Makes a platform token; gives it in full (shown once) and its id. */
export async function createPlatformToken(
  db: Queryable,
  name: string,
  now: Date,
  token = newToken(),
): Promise<{ id: number; token: string }> {
  const [row] = await db.query<{ id: number }>(
    'INSERT INTO platform_tokens (token_hash, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (token_hash) DO UPDATE SET name = platform_tokens.name RETURNING id',
    [hashToken(token), name, now],
  );
  return { id: row!.id, token };
}

export async function findPlatformToken(db: Queryable, token: string): Promise<number | undefined> {
  const [row] = await db.query<{ id: number }>('SELECT id FROM platform_tokens WHERE token_hash = $1', [
    hashToken(token),
  ]);
  return row?.id;
}

/** Who an access token belongs to: a person or an agent bot. */
export type TokenHolder = { kind: 'user'; id: number } | { kind: 'agent_bot'; id: number };

/** Told after a holder's access changed (signed out, new password or role, other inboxes, removed, deleted): their open sockets are checked again. */
export type OnAccessChanged = (holder: TokenHolder) => void;

/** Gives a person or a bot a new access token (replacing the old one); gives it in full, once. */
export async function issueAccessToken(db: Queryable, holder: TokenHolder, now: Date): Promise<string> {
  const column = holder.kind === 'user' ? 'user_id' : 'agent_bot_id';
  await db.query(`DELETE FROM access_tokens WHERE ${column} = $1 AND kind = 'access_token'`, [holder.id]);
  const token = newToken();
  await db.query(
    `INSERT INTO access_tokens (token_hash, ${column}, kind, created_at, pubsub_hash) VALUES ($1, $2, 'access_token', $3, $4)`,
    [hashToken(token), holder.id, now, hashToken(personPubsubToken(token))],
  );
  return token;
}

/** A session of a person signed in to the console: an access token that expires. */
export async function issueSession(
  db: Queryable,
  userId: number,
  now: Date,
  ttlMs: number,
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + ttlMs);
  await db.query(
    "INSERT INTO access_tokens (token_hash, user_id, kind, expires_at, created_at, pubsub_hash) VALUES ($1, $2, 'session', $3, $4, $5)",
    [hashToken(token), userId, expiresAt, now, hashToken(personPubsubToken(token))],
  );
  return { token, expiresAt };
}

/** Ends a console session; gives whose it was (their open sockets are checked again), if it was one. */
export async function endSession(db: Queryable, token: string): Promise<number | undefined> {
  const [row] = await db.query<{ user_id: number }>(
    "DELETE FROM access_tokens WHERE token_hash = $1 AND kind = 'session' RETURNING user_id",
    [hashToken(token)],
  );
  return row?.user_id;
}

/** Ends a person's console sessions but the one of `keptToken` (if given): after a new password, the others sign in again. */
export async function endOtherSessions(db: Queryable, userId: number, keptToken?: string): Promise<void> {
  await db.query("DELETE FROM access_tokens WHERE user_id = $1 AND kind = 'session' AND token_hash <> $2", [
    userId,
    keptToken === undefined ? '' : hashToken(keptToken),
  ]);
}

/** Whose token this is, unless it is unknown or expired. */
export const findTokenHolder = (db: Queryable, token: string, now: Date): Promise<TokenHolder | undefined> =>
  holderOfTokenHash(db, hashToken(token), now).then((found) => found?.holder);

/**
 * Whose token this hash is, and until when it works (`undefined`: until revoked), unless it is
 * unknown or expired. Sockets keep the hash, never the token.
 */
export async function holderOfTokenHash(
  db: Queryable,
  tokenHash: string,
  now: Date,
): Promise<{ holder: TokenHolder; expiresAt: Date | undefined } | undefined> {
  const [row] = await db.query<{ user_id: number | null; agent_bot_id: number | null; expires_at: Date | null }>(
    'SELECT user_id, agent_bot_id, expires_at FROM access_tokens WHERE token_hash = $1 AND (expires_at IS NULL OR expires_at > $2)',
    [tokenHash, now],
  );
  if (!row) return undefined;
  const holder: TokenHolder =
    row.user_id !== null ? { kind: 'user', id: row.user_id } : { kind: 'agent_bot', id: row.agent_bot_id! };
  return { holder, expiresAt: row.expires_at === null ? undefined : new Date(row.expires_at) };
}

/** A one-time sign-in link's token for a person, valid for `ttlMs`. */
export async function createSignInLink(db: Queryable, userId: number, now: Date, ttlMs: number): Promise<string> {
  const token = newToken();
  await db.query('INSERT INTO sign_in_links (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [
    hashToken(token),
    userId,
    new Date(now.getTime() + ttlMs),
  ]);
  return token;
}

/** Uses a sign-in link: gives its person once, while it is in date; never again. */
export async function useSignInLink(db: Queryable, token: string, now: Date): Promise<number | undefined> {
  const [row] = await db.query<{ user_id: number }>(
    'UPDATE sign_in_links SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id',
    [hashToken(token), now],
  );
  return row?.user_id;
}
