import { createHash } from 'node:crypto';
import { randomToken, type ForgetCustomerResponse } from '../shared/index.ts';
import type { Middleware } from 'koa';
import type { Logger, Queryable, Sql } from '../shared/server/index.ts';
import type { Caller } from './store/environment.ts';
import { appendEvents } from './store/events.ts';
import { eraseMediaOfConversations } from './store/media.ts';

type Owner = Pick<Caller, 'accountId' | 'environment'>;

/**
 * How long the `customer.forgotten` event names the customer: long enough for every webhook
 * attempt (about a day) and for a receiver that reads the feed after a week away (the BFF
 * remembers events that long). Then the reference is taken out of it too.
 */
export const FORGET_NOTICE_KEPT_MS = 7 * 24 * 3600_000;
const PURGE_EVERY_MS = 3600_000;

/**
 * What a forget does to each table that holds the customer's words, one line each, on the ids of
 * their conversations (`$1`). Rows stay where they are counted (turns, action requests, survey
 * ratings), emptied of what was said; what is only theirs goes. A table another part adds
 * (`survey_responses`) is erased once it exists.
 */
const ERASURE_RULES: readonly { table: string; counted?: 'turns' | 'action_requests'; statement: string }[] = [
  {
    table: 'turns',
    counted: 'turns',
    statement: "UPDATE turns SET text = '', message_id = NULL WHERE conversation_id = ANY($1::text[])",
  },
  {
    table: 'action_requests',
    counted: 'action_requests',
    statement:
      "UPDATE action_requests SET inputs = '{}', result = CASE WHEN result IS NULL THEN NULL ELSE '{}'::jsonb END WHERE conversation_id = ANY($1::text[])",
  },
  { table: 'voice_sessions', statement: 'DELETE FROM voice_sessions WHERE conversation_id = ANY($1::text[])' },
  {
    table: 'survey_responses',
    statement: 'UPDATE survey_responses SET comment = NULL WHERE conversation_id = ANY($1::text[])',
  },
  // Interview answers stay as counts (answered or skipped), emptied of what the customer said.
  {
    table: 'interview_answers',
    statement: "UPDATE interview_answers SET answer = '' WHERE conversation_id = ANY($1::text[])",
  },
  // Findings stay (monitors' counts), without the words they quoted; the LLM's checks not yet made are dropped.
  {
    table: 'monitor_findings',
    statement: "UPDATE monitor_findings SET excerpt = '' WHERE conversation_id = ANY($1::text[])",
  },
  { table: 'monitor_checks', statement: 'DELETE FROM monitor_checks WHERE conversation_id = ANY($1::text[])' },
  // A report's file may hold a survey comment: a file that names one of the conversations goes whole.
  {
    table: 'reports',
    statement:
      'DELETE FROM reports WHERE content IS NOT NULL AND EXISTS (SELECT 1 FROM unnest($1::text[]) AS c(id) WHERE strpos(reports.content, c.id) > 0)',
  },
];

/**
 * An event's data with the customer taken out: only its numbers and yes/no facts stay (a rating, a
 * score, whether it was resolved), so reports may still count; every text, list and object goes.
 * Readers leave such an event out (its data no longer has its type's shape).
 */
const REDACTED_DATA = `'{"redacted": true}'::jsonb || COALESCE((SELECT jsonb_object_agg(key, value) FROM jsonb_each(events.data)
  WHERE jsonb_typeof(value) IN ('number', 'boolean') AND key <> 'redacted'), '{}'::jsonb)`;

/**
 * Forgets a customer of the owner's account and environment, in one transaction: their
 * conversations are closed and kept only as counts (the reference replaced by a salted one-way
 * hash whose salt is not kept, what the AI remembered cleared), every turn's text, every action's
 * inputs and result, their media, survey comments and voice sessions are erased, their events keep
 * only numbers (and their webhook deliveries the same), and kept idempotent answers that name them
 * are deleted. Then `customer.forgotten` tells receivers to erase what they hold. A reference with
 * nothing here is forgotten all the same (a receiver may hold what never reached the engine).
 */
export async function forgetCustomer(
  sql: Sql,
  owner: Owner,
  customerRef: string,
  now: Date,
): Promise<ForgetCustomerResponse> {
  return sql.transaction(async (tx) => {
    const ids = (
      await tx.query<{ id: string }>(
        'SELECT id FROM conversations WHERE account_id = $1 AND environment = $2 AND customer_ref = $3 ORDER BY id FOR UPDATE',
        [owner.accountId, owner.environment, customerRef],
      )
    ).map((row) => row.id);
    const counts: ForgetCustomerResponse = {
      forgotten: true,
      conversations: ids.length,
      turns: 0,
      action_requests: 0,
      events: 0,
      media: 0,
      event_id: '',
    };
    if (ids.length > 0) {
      const pseudonym = `forgotten_${createHash('sha256')
        .update(`${randomToken(22)}:${customerRef}`)
        .digest('hex')
        .slice(0, 32)}`;
      await tx.query(
        `UPDATE conversations SET customer_ref = $2, forgotten_at = $3, updated_at = $3, state = 'closed', closed_at = COALESCE(closed_at, $3),
           locale = NULL, awaiting_action = NULL, last_answer = NULL, last_question = NULL, customer_language = NULL,
           unanswered_streak = 0, last_reply_answered = false
         WHERE id = ANY($1::text[])`,
        [ids, pseudonym, now],
      );
      for (const rule of ERASURE_RULES) {
        if (!(await tableExists(tx, rule.table))) continue;
        const changed = await tx.query(`${rule.statement} RETURNING 1`, [ids]);
        if (rule.counted) counts[rule.counted] = changed.length;
      }
      if (await tableExists(tx, 'media')) counts.media = await eraseMediaOfConversations(tx, owner, ids);
    }
    counts.events = await redactEvents(tx, owner, ids, customerRef);
    await forgetIdempotentAnswers(tx, owner, ids, customerRef);
    const [notice] = await appendEvents(
      tx,
      owner,
      [
        {
          type: 'customer.forgotten',
          conversationId: null,
          data: { customer_ref: customerRef, conversation_ids: ids },
        },
      ],
      now,
    );
    counts.event_id = notice!.id;
    return counts;
  });
}

async function tableExists(db: Queryable, table: string): Promise<boolean> {
  const [row] = await db.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [table]);
  return Boolean(row?.found);
}

/**
 * The events of the customer's conversations (also those that name a conversation only in their
 * data, such as a medium's) and earlier `customer.forgotten` notices of the same reference keep only
 * their numbers; their webhook deliveries, sent or not, carry the same redacted event.
 */
async function redactEvents(
  tx: Queryable,
  owner: Owner,
  conversationIds: readonly string[],
  customerRef: string,
): Promise<number> {
  const redacted = await tx.query<{ id: string }>(
    `UPDATE events SET data = ${REDACTED_DATA}
     WHERE account_id = $1 AND environment = $2 AND NOT (data ? 'redacted')
       AND (conversation_id = ANY($3::text[]) OR data->>'conversation_id' = ANY($3::text[])
            OR (type = 'customer.forgotten' AND data->>'customer_ref' = $4))
     RETURNING id`,
    [owner.accountId, owner.environment, conversationIds, customerRef],
  );
  await rewriteDeliveries(
    tx,
    redacted.map((row) => row.id),
  );
  return redacted.length;
}

/** Webhook deliveries of these events post their redacted form from now on (every later attempt, and a resend). */
async function rewriteDeliveries(tx: Queryable, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await tx.query(
    `UPDATE webhook_deliveries d SET body = jsonb_set(d.body::jsonb, '{data}', e.data)::text
     FROM events e WHERE e.id = d.event_id AND d.event_id = ANY($1::text[])`,
    [eventIds],
  );
}

/**
 * Records of Idempotency-Key requests (24 hours) about the customer or one of their conversations,
 * answers kept that name them, and the records of requests whose path names them (a merge, this very forget:
 * its own answer then is not kept, and a retry forgets again, which changes nothing).
 */
async function forgetIdempotentAnswers(
  tx: Queryable,
  owner: Owner,
  conversationIds: readonly string[],
  customerRef: string,
): Promise<void> {
  const keys = `SELECT id FROM api_keys WHERE account_id = $1 AND environment = $2`;
  // Records tied to the customer or one of their conversations when they were kept (migration 018),
  // whatever their key's own text holds.
  await tx.query(
    `DELETE FROM idempotency_keys WHERE key_id IN (${keys}) AND (customer_ref = $3 OR conversation_id = ANY($4::text[]))`,
    [owner.accountId, owner.environment, customerRef, conversationIds],
  );
  // Answers are JSON.stringify's text: a reference appears as this exact member.
  const needles = [...conversationIds, `"customer_ref":${JSON.stringify(customerRef)}`];
  await tx.query(
    `DELETE FROM idempotency_keys WHERE key_id IN (${keys}) AND body IS NOT NULL
       AND EXISTS (SELECT 1 FROM unnest($3::text[]) AS needle WHERE strpos(body, needle) > 0)`,
    [owner.accountId, owner.environment, needles],
  );
  const routes = await tx.query<{ route: string }>(
    `SELECT DISTINCT route FROM idempotency_keys WHERE key_id IN (${keys}) AND route LIKE 'POST /v1/customers/%'`,
    [owner.accountId, owner.environment],
  );
  const naming = routes.map((row) => row.route).filter((route) => customerOfRoute(route) === customerRef);
  if (naming.length > 0)
    await tx.query(`DELETE FROM idempotency_keys WHERE key_id IN (${keys}) AND route = ANY($3::text[])`, [
      owner.accountId,
      owner.environment,
      naming,
    ]);
}

/** The customer a `POST /v1/customers/{customer_ref}/…` route names, as the path's escapes decode. */
function customerOfRoute(route: string): string | undefined {
  const segment = /^POST \/v1\/customers\/([^/]+)\//.exec(route)?.[1];
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Takes the customer's reference out of `customer.forgotten` events older than the notice time
 * (FORGET_NOTICE_KEPT_MS), and out of their webhook deliveries: what stays is how many
 * conversations were forgotten. Gives how many notices it changed.
 */
export async function purgeForgetNotices(sql: Sql, now: Date): Promise<number> {
  return sql.transaction(async (tx) => {
    const purged = await tx.query<{ id: string }>(
      `UPDATE events SET data = jsonb_build_object('redacted', true, 'conversations', jsonb_array_length(COALESCE(data->'conversation_ids', '[]'::jsonb)))
       WHERE type = 'customer.forgotten' AND created_at < $1 AND NOT (data ? 'redacted') RETURNING id`,
      [new Date(now.getTime() - FORGET_NOTICE_KEPT_MS)],
    );
    await rewriteDeliveries(
      tx,
      purged.map((row) => row.id),
    );
    return purged.length;
  });
}

/** Purges expired notices (purgeForgetNotices) at most once an hour, beside the requests that come anyway; never holds one up. */
export function purgeForgetNoticesHourly(sql: Sql, now: () => Date, logger: Logger): Middleware {
  let purgedAt = Number.NEGATIVE_INFINITY;
  return async (_ctx, next) => {
    if (now().getTime() - purgedAt >= PURGE_EVERY_MS) {
      purgedAt = now().getTime();
      void purgeForgetNotices(sql, now()).catch((error: unknown) =>
        logger.warn({ err: error }, 'purging customer.forgotten notices failed; tried again in an hour'),
      );
    }
    await next();
  };
}
