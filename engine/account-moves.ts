import { ParleyError } from '../shared/index.ts';
import type { AccountMove, AccountMoved } from '../shared/schemas/engine-account-moves.ts';
import type { Queryable, Sql } from '../shared/server/index.ts';
import { COPIED, copyRows, MOVED } from './account-move-rules.ts';
import { insertAccount, issueApiKey } from './store/accounts.ts';
import type { Environment } from './store/environment.ts';
import { FEED_START } from './store/events.ts';

const ENVIRONMENTS = ['sandbox', 'live'] as const;

/**
 * The account the move named `reference` made, with its keys revoked (a try before this one made
 * them, and its answer was lost: no one holds them); or a new one, with the limits of the account
 * moved from. Either way it gets a sandbox and a live key, shown in this answer only.
 */
async function openTarget(tx: Queryable, from: string, move: AccountMove, now: Date) {
  const [made] = await tx.query<{ id: string }>('SELECT id FROM accounts WHERE move_reference = $1 FOR UPDATE', [
    move.reference,
  ]);
  let target = made?.id;
  if (target === from) throw new ParleyError('unprocessable', 'An account cannot be moved into itself.');
  if (target) {
    await tx.query('UPDATE api_keys SET revoked_at = $2 WHERE account_id = $1 AND revoked_at IS NULL', [target, now]);
  } else {
    target = await insertAccount(tx, move.name);
    await tx.query(
      `UPDATE accounts t SET move_reference = $2, requests_per_minute_sandbox = s.requests_per_minute_sandbox,
         requests_per_minute_live = s.requests_per_minute_live FROM accounts s WHERE t.id = $1 AND s.id = $3`,
      [target, move.reference, from],
    );
  }
  const test = await issueApiKey(tx, target, 'sandbox');
  const live = await issueApiKey(tx, target, 'live');
  return { target, keys: { test: test.key, live: live.key } };
}

/**
 * Holds the monitors off the conversations named until the commit, taking their rows in the order
 * the monitor worker takes them (a conversation's cursor, its checks, then the conversation): one
 * reading or answering now commits first and what it found is moved; one after reads them as the
 * new account's. A cursor at 0 is what the worker would make itself.
 */
async function holdMonitors(tx: Queryable, ids: string[]) {
  await tx.query(
    'INSERT INTO monitor_cursors (conversation_id, position) SELECT id, 0 FROM conversations WHERE id = ANY($1) ON CONFLICT DO NOTHING',
    [ids],
  );
  await tx.query('SELECT 1 FROM monitor_cursors WHERE conversation_id = ANY($1) ORDER BY conversation_id FOR UPDATE', [
    ids,
  ]);
  await tx.query(
    'SELECT 1 FROM monitor_checks WHERE conversation_id = ANY($1) ORDER BY monitor_id, turn_id FOR UPDATE',
    [ids],
  );
}

/** Of the conversations named, those still in the account moved from (held until the commit); one of a third account is refused. */
async function conversationsToMove(tx: Queryable, from: string, target: string, ids: string[]): Promise<string[]> {
  const rows = await tx.query<{ id: string; account_id: string }>(
    'SELECT id, account_id FROM conversations WHERE id = ANY($1) ORDER BY id FOR UPDATE',
    [ids],
  );
  const elsewhere = rows.filter((row) => row.account_id !== from && row.account_id !== target).map((row) => row.id);
  if (elsewhere.length > 0) {
    throw new ParleyError(
      'unprocessable',
      `Conversations of another account cannot be moved: ${elsewhere.join(', ')}.`,
      {
        problems: [{ field: 'conversation_ids', message: 'conversations of another account' }],
      },
    );
  }
  return rows.filter((row) => row.account_id === from).map((row) => row.id);
}

/**
 * Moves the conversations' events of `environment` to the end of the new account's feed, in their
 * order, keeping their ids and where they stood (readFeed still finds a cursor that names one).
 * The new feed's row is locked by taking the numbers, as appendEvents takes them.
 */
async function moveEvents(tx: Queryable, from: string, to: string, environment: Environment, ids: string[]) {
  const [counted] = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM events WHERE account_id = $1 AND environment = $2 AND conversation_id = ANY($3)',
    [from, environment, ids],
  );
  const n = counted?.n ?? 0;
  if (n === 0) return;
  const [feed] = await tx.query<{ last_seq: string }>(
    'UPDATE feeds SET last_seq = last_seq + $3 WHERE account_id = $1 AND environment = $2 RETURNING last_seq',
    [to, environment, n],
  );
  await tx.query(
    `UPDATE events e SET account_id = $2, seq = $5::bigint + m.n, moved_from_account = $1, moved_from_seq = e.seq
     FROM (SELECT seq, row_number() OVER (ORDER BY seq) AS n FROM events
           WHERE account_id = $1 AND environment = $3 AND conversation_id = ANY($4)) m
     WHERE e.account_id = $1 AND e.environment = $3 AND e.seq = m.seq`,
    [from, to, environment, ids, Number(feed!.last_seq) - n],
  );
}

/**
 * Where a reader of the old account's feed, read up to `cursor`, reads the new account's feed
 * from: just before the first moved event it has not read (null: from the start).
 */
async function continuingCursor(
  tx: Queryable,
  from: string,
  to: string,
  environment: Environment,
  cursor: string | undefined,
): Promise<string | null> {
  let readUpTo = 0;
  if (cursor && cursor !== FEED_START) {
    const [row] = await tx.query<{ seq: string }>(
      `SELECT CASE WHEN account_id = $2 THEN seq ELSE moved_from_seq END AS seq FROM events
       WHERE id = $1 AND environment = $3 AND (account_id = $2 OR moved_from_account = $2)`,
      [cursor, from, environment],
    );
    if (!row) throw new ParleyError('invalid_request', `The cursor ${cursor} is not an event of account ${from}.`);
    readUpTo = Number(row.seq);
  }
  const [row] = await tx.query<{ id: string }>(
    `SELECT id FROM events WHERE account_id = $1 AND environment = $2 AND seq <= COALESCE(
       (SELECT min(seq) - 1 FROM events WHERE account_id = $1 AND environment = $2 AND moved_from_account = $3 AND moved_from_seq > $4),
       (SELECT last_seq FROM feeds WHERE account_id = $1 AND environment = $2))
     ORDER BY seq DESC LIMIT 1`,
    [to, environment, from, readUpTo],
  );
  return row?.id ?? null;
}

/**
 * Moves conversations of account `from` to an account of their own, in one transaction: the
 * account is made on the first try (a later try with the same reference finds it), what the shop
 * set up is copied to it (COPIED), and the conversations go with their turns, events, media and
 * the rest (MOVED). Gives undefined when there is no account `from`.
 */
export async function moveToOwnAccount(
  sql: Sql,
  from: string,
  move: AccountMove,
  now: Date,
): Promise<AccountMoved | undefined> {
  return sql.transaction(async (tx) => {
    // One move from an account at a time: two tries of one move never make two accounts.
    const [source] = await tx.query('SELECT id FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [from]);
    if (!source) return undefined;
    const { target, keys } = await openTarget(tx, from, move, now);
    for (const rule of COPIED) await copyRows(tx, rule, from, target);
    const named = [...new Set(move.conversation_ids)];
    await holdMonitors(tx, named);
    const ids = await conversationsToMove(tx, from, target, named);
    if (ids.length > 0) {
      await tx.query('UPDATE conversations SET account_id = $2 WHERE account_id = $1 AND id = ANY($3)', [
        from,
        target,
        ids,
      ]);
      for (const rule of MOVED) await tx.query(rule.statement, [from, target, ids]);
      for (const environment of ENVIRONMENTS) await moveEvents(tx, from, target, environment, ids);
    }
    const cursors = { sandbox: null as string | null, live: null as string | null };
    for (const environment of ENVIRONMENTS)
      cursors[environment] = await continuingCursor(tx, from, target, environment, move.feed_cursors?.[environment]);
    return { account_id: target, keys, moved: ids.length, feed_cursors: cursors };
  });
}
