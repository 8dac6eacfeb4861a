import { newId, ParleyError, type EngineEvent, type EventData, type EventType } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import type { Caller } from './environment.ts';

/** An event about to be appended: its data has its type's shape (`shared/events.ts`). */
export type EventDraft = {
  [T in EventType]: {
    type: T;
    /** Null for an event of the account (e.g. a medium uploaded outside any conversation). */
    conversationId: string | null;
    data: EventData<T>;
    /** The customer turn whose message caused the event, so a retried send can replay it. */
    causedBy?: string | undefined;
  };
}[EventType];

interface EventRow {
  id: string;
  type: string;
  conversation_id: string;
  data: Record<string, unknown>;
  created_at: Date;
}

// Rows were written from typed drafts only, so their data has their type's shape.
const toEvent = (row: EventRow): EngineEvent =>
  ({
    id: row.id,
    type: row.type,
    created_at: row.created_at.toISOString(),
    conversation_id: row.conversation_id,
    data: row.data,
  }) as EngineEvent;

/**
 * Appends events to the caller's feed inside the caller's transaction. Call it as the last write
 * of the transaction: it takes the feed's lock, which is held until the commit.
 *
 * The feed's order is its `seq`. Taking the next numbers with `UPDATE feeds … RETURNING` locks the
 * feed row until the transaction ends, so transactions that write events commit in `seq` order and
 * a reader never sees event N+1 before event N: the feed cannot skip an event when writes race it.
 */
export async function appendEvents(
  tx: Queryable,
  caller: Pick<Caller, 'accountId' | 'environment'>,
  drafts: readonly EventDraft[],
  now: Date,
): Promise<EngineEvent[]> {
  if (drafts.length === 0) return [];
  const events = drafts.map(
    (draft) =>
      ({
        id: newId('event'),
        type: draft.type,
        created_at: now.toISOString(),
        conversation_id: draft.conversationId,
        data: draft.data,
      }) as EngineEvent,
  );
  // One statement takes the numbers and writes the rows, so the feed's lock is held for it and the commit only.
  const params: unknown[] = [caller.accountId, caller.environment, now, drafts.length];
  const rows = events.map((event, index) => {
    params.push(
      event.id,
      event.type,
      event.conversation_id,
      JSON.stringify(event.data),
      drafts[index]!.causedBy ?? null,
    );
    const at = params.length - 4;
    return `(${index + 1}, $${at}::text, $${at + 1}::text, $${at + 2}::text, $${at + 3}::jsonb, $${at + 4}::text)`;
  });
  const written = await tx.query(
    `WITH feed AS (UPDATE feeds SET last_seq = last_seq + $4 WHERE account_id = $1 AND environment = $2 RETURNING last_seq)
     INSERT INTO events (account_id, environment, seq, id, type, conversation_id, data, caused_by, created_at)
     SELECT $1, $2, feed.last_seq - $4 + draft.n, draft.id, draft.type, draft.conversation_id, draft.data, draft.caused_by, $3
     FROM feed, (VALUES ${rows.join(', ')}) AS draft (n, id, type, conversation_id, data, caused_by)
     RETURNING seq`,
    params,
  );
  if (written.length === 0) throw new Error(`no feed for account ${caller.accountId} (${caller.environment})`);
  return events;
}

/** The events a customer turn caused, in feed order (for replaying a retried send). */
export async function eventsCausedBy(db: Queryable, turnId: string): Promise<EngineEvent[]> {
  const rows = await db.query<EventRow>(
    'SELECT id, type, conversation_id, data, created_at FROM events WHERE caused_by = $1 ORDER BY seq',
    [turnId],
  );
  return rows.map(toEvent);
}

export interface FeedPage {
  events: EngineEvent[];
  next: string;
  has_more: boolean;
}

/**
 * The cursor of a feed's start, before its first event: the `next` of a page that has nothing
 * yet to read on from, so a client polling an empty feed gets its first event when it comes. It
 * has an event id's form (SPEC: the cursor is an event id) but is no event: real ids are longer.
 */
export const FEED_START = 'evt_0000000000000000';

/**
 * One page of the caller's feed after the event `after` (exclusive), oldest first. `next` is
 * never null: the last event of the page; on a page that is not full, the feed's newest event,
 * even one `types` left out, so a filtered poll does not read those again; with nothing after
 * `after`, `after` itself, or FEED_START.
 */
export async function readFeed(
  db: Queryable,
  caller: Caller,
  options: { after?: string | undefined; limit: number; types?: string[] | undefined },
): Promise<FeedPage> {
  let afterSeq = 0;
  if (options.after && options.after !== FEED_START) {
    // An event moved to another account (engine/account-moves.ts) still marks where it stood here.
    const [cursor] = await db.query<{ seq: number }>(
      `SELECT CASE WHEN account_id = $2 THEN seq ELSE moved_from_seq END AS seq FROM events
       WHERE id = $1 AND environment = $3 AND (account_id = $2 OR moved_from_account = $2)`,
      [options.after, caller.accountId, caller.environment],
    );
    if (!cursor)
      throw new ParleyError('invalid_request', `The cursor ${options.after} is not an event of this account.`);
    afterSeq = cursor.seq;
  }
  const params: unknown[] = [caller.accountId, caller.environment, afterSeq, options.limit + 1];
  let typeFilter = '';
  if (options.types?.length) {
    params.push(options.types);
    typeFilter = 'AND type = ANY($5::text[])';
  }
  // One statement, so one snapshot: the newest event is read together with the page, and none the
  // page could hold commits between the two (the feed commits in seq order: appendEvents).
  const rows = await db.query<Partial<EventRow> & { newest_id: string }>(
    `WITH newest AS (
       SELECT id FROM events WHERE account_id = $1 AND environment = $2 AND seq > $3 ORDER BY seq DESC LIMIT 1
     )
     SELECT newest.id AS newest_id, page.id, page.type, page.conversation_id, page.data, page.created_at
     FROM newest LEFT JOIN LATERAL (
       SELECT seq, id, type, conversation_id, data, created_at FROM events
       WHERE account_id = $1 AND environment = $2 AND seq > $3 ${typeFilter}
       ORDER BY seq LIMIT $4
     ) page ON true
     ORDER BY page.seq`,
    params,
  );
  const found = rows.filter((row): row is EventRow & { newest_id: string } => row.id != null);
  const hasMore = found.length > options.limit;
  const events = found.slice(0, options.limit).map(toEvent);
  const newest = rows[0]?.newest_id;
  const next = hasMore ? events.at(-1)!.id : (newest ?? options.after ?? FEED_START);
  return { events, next, has_more: hasMore };
}

/** Every event of one conversation, in feed order. */
export async function eventsOfConversation(
  db: Queryable,
  caller: Pick<Caller, 'accountId' | 'environment'>,
  conversationId: string,
): Promise<EngineEvent[]> {
  const rows = await db.query<EventRow>(
    'SELECT id, type, conversation_id, data, created_at FROM events WHERE account_id = $1 AND environment = $2 AND conversation_id = $3 ORDER BY seq',
    [caller.accountId, caller.environment, conversationId],
  );
  return rows.map(toEvent);
}
