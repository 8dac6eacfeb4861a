/**
 * The e-mail tables (migration 029): pending digests, reply tokens and continuation links. One
 * statement per concern; the callers compose them in their transactions.
 */
import type { Queryable } from '../../shared/server/index.ts';

/** A digest claimed for sending: whose conversation, and the last message already e-mailed. */
export interface ClaimedDigest {
  conversationId: number;
  afterId: number;
  attempts: number;
}

/**
 * The customer's address: the one given for the conversation (pre-chat form, "Get the reply by
 * e-mail?"), else their contact's (a Client API contact's, or the one a widget visitor typed before,
 * kept on their contact by `keepContactEmail`).
 */
const CUSTOMER_EMAIL = `COALESCE(NULLIF(c.contact_email, ''),
  (SELECT NULLIF(k.email, '') FROM contacts k WHERE 'ctc_' || k.id = c.customer_ref AND k.inbox_id = c.inbox_id),
  (SELECT NULLIF(k.email, '') FROM contacts k WHERE k.customer_ref = c.customer_ref AND k.inbox_id = c.inbox_id))`;

/**
 * Keeps the address a widget visitor typed (or null: removed) on their contact too, made now if
 * people have not opened one yet (as `ensureCustomerContact` makes it), so their next conversation
 * uses it. A Client API contact (`ctc_…`) is the integrator's: its address is left as they set it.
 */
export async function keepContactEmail(
  db: Queryable,
  conversation: { inboxId: string; customerRef: string },
  email: string | null,
  now: Date,
): Promise<void> {
  if (conversation.customerRef.startsWith('ctc_')) return;
  await db.query(
    `INSERT INTO contacts AS k (inbox_id, name, email, customer_ref, created_at, updated_at)
     SELECT $1, COALESCE((SELECT c.contact_name FROM conversations c WHERE c.inbox_id = $1 AND c.customer_ref = $2
       AND c.contact_name IS NOT NULL ORDER BY c.id DESC LIMIT 1), ''), $3, $2, $4, $4
     WHERE $3::text IS NOT NULL OR EXISTS (SELECT 1 FROM contacts WHERE inbox_id = $1 AND customer_ref = $2)
     ON CONFLICT (inbox_id, customer_ref) WHERE customer_ref IS NOT NULL
     DO UPDATE SET email = EXCLUDED.email, updated_at = EXCLUDED.updated_at`,
    [conversation.inboxId, conversation.customerRef, email, now],
  );
}

/** The address answers of a conversation go to (the given one, else the Client API contact's), or null. */
export async function customerEmail(db: Queryable, conversationId: number): Promise<string | null> {
  const [row] = await db.query<{ email: string | null }>(
    `SELECT ${CUSTOMER_EMAIL} AS email FROM conversations c WHERE c.id = $1`,
    [conversationId],
  );
  return row?.email ?? null;
}

/**
 * Notes that a conversation whose customer has an address has an answer to e-mail: the first one
 * makes the row (due after the gathering delay), the next ones of the same window find it there
 * and change nothing.
 */
export async function noteDigestDue(
  tx: Queryable,
  { conversationId, afterId, dueAt, now }: { conversationId: number; afterId: number; dueAt: Date; now: Date },
): Promise<void> {
  await tx.query(
    `INSERT INTO email_digests (conversation_id, after_id, due_at, created_at)
     SELECT c.id, $2, $3, $4 FROM conversations c WHERE c.id = $1 AND ${CUSTOMER_EMAIL} IS NOT NULL
     ON CONFLICT (conversation_id) DO NOTHING`,
    [conversationId, afterId, dueAt, now],
  );
}

/**
 * Takes the lease of one digest that is due and not held by a live lease (another node's, or one
 * that crashed and whose lease ran out), so that no two senders send the same digest.
 */
export async function claimDueDigest(
  db: Queryable,
  { owner, now, leaseUntil }: { owner: string; now: Date; leaseUntil: Date },
): Promise<ClaimedDigest | undefined> {
  const [row] = await db.query<{ conversation_id: string; after_id: string; attempts: number }>(
    `UPDATE email_digests SET lease_owner = $1, lease_until = $3
     WHERE conversation_id = (
       SELECT conversation_id FROM email_digests
       WHERE due_at <= $2 AND (lease_until IS NULL OR lease_until < $2)
       ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING conversation_id, after_id, attempts`,
    [owner, now, leaseUntil],
  );
  return row && { conversationId: Number(row.conversation_id), afterId: Number(row.after_id), attempts: row.attempts };
}

/** Ends a digest its holder sent (or found nothing to send for). */
export async function finishDigest(db: Queryable, conversationId: number, owner: string): Promise<void> {
  await db.query('DELETE FROM email_digests WHERE conversation_id = $1 AND lease_owner = $2', [conversationId, owner]);
}

/** Puts a digest whose send failed back, due again at `dueAt`, with one more attempt counted. */
export async function postponeDigest(
  db: Queryable,
  { conversationId, owner, dueAt }: { conversationId: number; owner: string; dueAt: Date },
): Promise<void> {
  await db.query(
    `UPDATE email_digests SET due_at = $3, attempts = attempts + 1, lease_owner = NULL, lease_until = NULL
     WHERE conversation_id = $1 AND lease_owner = $2`,
    [conversationId, owner, dueAt],
  );
}

/** Digests waiting, and those that failed at least once (for /metrics). */
export async function countDigests(db: Queryable): Promise<{ pending: number; failing: number }> {
  const [row] = await db.query<{ pending: number; failing: number }>(
    'SELECT count(*)::int AS pending, count(*) FILTER (WHERE attempts > 0)::int AS failing FROM email_digests',
  );
  return row ?? { pending: 0, failing: 0 };
}

/** An answer to e-mail: the words a person or the AI wrote the customer. */
export interface DigestMessage {
  id: number;
  author: 'ai' | 'human';
  authorName: string | null;
  text: string;
  createdAt: Date;
}

/**
 * The answers after `afterId` the customer has not read: a person's or the AI's words the widget
 * shows (no notes, no notices, no survey question).
 */
export async function unreadAnswers(db: Queryable, conversationId: number, afterId: number): Promise<DigestMessage[]> {
  const rows = await db.query<{
    id: string;
    author: 'ai' | 'human';
    author_name: string | null;
    text: string;
    created_at: Date;
  }>(
    `SELECT m.id, m.author, m.author_name, m.text, m.created_at FROM messages m
     JOIN conversations c ON c.id = m.conversation_id
     WHERE m.conversation_id = $1 AND m.id > $2 AND m.id > c.customer_last_read_id
       AND m.author IN ('ai', 'human') AND NOT m.private AND m.content_type <> 'input_csat'
     ORDER BY m.id LIMIT 50`,
    [conversationId, afterId],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    author: row.author,
    authorName: row.author_name,
    text: row.text,
    createdAt: new Date(row.created_at),
  }));
}

/** Whether answers came after `afterId` (while a digest was being sent): they need a digest of their own. */
export async function hasAnswersAfter(db: Queryable, conversationId: number, afterId: number): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM messages m WHERE m.conversation_id = $1 AND m.id > $2
       AND m.author IN ('ai', 'human') AND NOT m.private AND m.content_type <> 'input_csat' LIMIT 1`,
    [conversationId, afterId],
  );
  return rows.length > 0;
}

/** Where and to whom a digest goes: the customer's address and the shop's look. */
export interface DigestRecipient {
  uuid: string;
  inboxId: string;
  customerRef: string;
  environment: string;
  locale: string | null;
  status: 'open' | 'resolved';
  email: string;
  shopName: string;
  shopColor: string;
  shopLogoUrl: string;
}

/**
 * The customer's e-mail address (the one typed into the pre-chat form or given for the
 * conversation, else the Client API contact's) and the shop's name, colour and logo; undefined
 * when the customer has no address.
 */
export async function digestRecipient(db: Queryable, conversationId: number): Promise<DigestRecipient | undefined> {
  const [row] = await db.query<{
    uuid: string;
    inbox_id: string;
    customer_ref: string;
    environment: string;
    locale: string | null;
    status: 'open' | 'resolved';
    email: string | null;
    name: string;
    color: string;
    avatar_url: string;
  }>(
    `SELECT c.uuid, c.inbox_id, c.customer_ref, c.environment, c.locale, c.status, i.name, i.color, i.avatar_url,
       ${CUSTOMER_EMAIL} AS email
     FROM conversations c JOIN inboxes i ON i.id = c.inbox_id WHERE c.id = $1`,
    [conversationId],
  );
  if (!row?.email) return undefined;
  return {
    uuid: row.uuid,
    inboxId: row.inbox_id,
    customerRef: row.customer_ref,
    environment: row.environment,
    locale: row.locale,
    status: row.status,
    email: row.email,
    shopName: row.name,
    shopColor: row.color,
    shopLogoUrl: row.avatar_url,
  };
}

/** Keeps a reply token (its hash) for a conversation and the address its digest went to. */
export async function keepReplyToken(
  db: Queryable,
  token: { hash: string; conversationId: number; sentTo: string; now: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO email_reply_tokens (token_hash, conversation_id, sent_to, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [token.hash, token.conversationId, token.sentTo, token.now, token.expiresAt],
  );
}

/** The conversation a reply token names, while it has not expired. */
export async function findReplyToken(
  db: Queryable,
  hash: string,
  now: Date,
): Promise<{ conversationId: number; sentTo: string } | undefined> {
  const [row] = await db.query<{ conversation_id: string; sent_to: string }>(
    'SELECT conversation_id, sent_to FROM email_reply_tokens WHERE token_hash = $1 AND expires_at > $2',
    [hash, now],
  );
  return row && { conversationId: Number(row.conversation_id), sentTo: row.sent_to };
}

/** Keeps a continuation link's token (its hash). */
export async function keepContinuation(
  db: Queryable,
  link: { hash: string; conversationId: number; now: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO email_continuations (token_hash, conversation_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
    [link.hash, link.conversationId, link.now, link.expiresAt],
  );
}

/** Uses a continuation link once: the conversation it opens, or undefined when unknown, expired or used. */
export async function useContinuation(db: Queryable, hash: string, now: Date): Promise<number | undefined> {
  const [row] = await db.query<{ conversation_id: string }>(
    `UPDATE email_continuations SET used_at = $2
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING conversation_id`,
    [hash, now],
  );
  return row && Number(row.conversation_id);
}

/** Forgets reply tokens and continuation links past their time (housekeeping). */
export async function forgetExpiredTokens(db: Queryable, now: Date): Promise<void> {
  await db.query('DELETE FROM email_reply_tokens WHERE expires_at <= $1', [now]);
  await db.query('DELETE FROM email_continuations WHERE expires_at <= $1', [now]);
}
