import { newId } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import type { MonitorFinding } from '../../shared/schemas/monitors.ts';
import type { Environment } from './environment.ts';

/**
 * How the monitors find the messages they have not read yet, without a hook in the conversations:
 * a turn's `position` is taken from a sequence when it is written, so across conversations a lower
 * position may commit after a higher one. Within one conversation it cannot (turns are written
 * under the conversation's lock), so each conversation has an exact cursor (`monitor_cursors`),
 * and the search for conversations with turns past their cursor starts at `monitor_scan`, which
 * trails the newest turns by SCAN_LOOK_BACK_MS: a turn whose transaction took less than that to
 * commit is always found. (One slower still is read with its conversation's next turn, at the
 * latest the note its close writes.)
 */
export const SCAN_LOOK_BACK_MS = 10 * 60_000;

/** Turns past the scan's start and their conversation's cursor, of accounts that have monitors. */
const UNREAD_TURNS = `FROM turns t
  JOIN conversations c ON c.id = t.conversation_id
  LEFT JOIN monitor_cursors mc ON mc.conversation_id = t.conversation_id
  WHERE t.position > (SELECT position FROM monitor_scan) AND t.position > COALESCE(mc.position, 0)
    AND t.role <> 'system'
    AND EXISTS (SELECT 1 FROM monitors m WHERE m.account_id = c.account_id AND m.environment = c.environment)`;

/** Conversations with turns the monitors have not read, those waiting longest first. */
export async function conversationsToRead(db: Queryable, limit: number): Promise<string[]> {
  const rows = await db.query<{ conversation_id: string }>(
    `SELECT t.conversation_id ${UNREAD_TURNS} GROUP BY t.conversation_id ORDER BY min(t.position) LIMIT $1`,
    [limit],
  );
  return rows.map((row) => row.conversation_id);
}

/**
 * Moves the scan's start up to the newest turn written before the look-back, but never past a turn
 * still unread (a conversation another process holds, or one that failed).
 */
export async function advanceScan(db: Queryable, now: Date): Promise<void> {
  await db.query(
    `UPDATE monitor_scan SET position = GREATEST(position, LEAST(
       (SELECT COALESCE(max(position), 0) FROM turns WHERE position > monitor_scan.position AND created_at < $1),
       (SELECT COALESCE(min(t.position) - 1, 9223372036854775807) ${UNREAD_TURNS})))`,
    [new Date(now.getTime() - SCAN_LOOK_BACK_MS)],
  );
}

export interface UnreadTurn {
  id: string;
  role: 'customer' | 'ai' | 'human' | 'system';
  text: string;
  created_at: Date;
}

export interface ConversationToRead {
  accountId: string;
  environment: Environment;
  turns: UnreadTurn[];
}

/**
 * Claims one conversation's cursor for the transaction `tx` (undefined when another process holds
 * it) and gives its turns after the cursor, oldest first, at most `limit`; `moveCursor` then records
 * them read.
 */
export async function claimConversation(
  tx: Queryable,
  conversationId: string,
  limit: number,
): Promise<(ConversationToRead & { lastPosition: string | undefined }) | undefined> {
  await tx.query('INSERT INTO monitor_cursors (conversation_id, position) VALUES ($1, 0) ON CONFLICT DO NOTHING', [
    conversationId,
  ]);
  const [cursor] = await tx.query<{ position: string; account_id: string; environment: Environment }>(
    `SELECT mc.position, c.account_id, c.environment FROM monitor_cursors mc JOIN conversations c ON c.id = mc.conversation_id
     WHERE mc.conversation_id = $1 FOR UPDATE OF mc SKIP LOCKED`,
    [conversationId],
  );
  if (!cursor) return undefined;
  const rows = await tx.query<UnreadTurn & { position: string }>(
    'SELECT id, role, text, created_at, position FROM turns WHERE conversation_id = $1 AND position > $2 ORDER BY position LIMIT $3',
    [conversationId, cursor.position, limit],
  );
  return {
    accountId: cursor.account_id,
    environment: cursor.environment,
    turns: rows,
    lastPosition: rows.at(-1)?.position,
  };
}

export async function moveCursor(tx: Queryable, conversationId: string, position: string): Promise<void> {
  await tx.query('UPDATE monitor_cursors SET position = $2 WHERE conversation_id = $1', [conversationId, position]);
}

export interface FindingDraft {
  monitorId: string;
  monitorName: string;
  accountId: string;
  environment: Environment;
  conversationId: string;
  turn: { id: string; role: MonitorFinding['role'] };
  excerpt: string;
  severity: MonitorFinding['severity'];
}

/** Records a finding; false when the monitor had found this message already (a pass run twice). */
export async function insertFinding(tx: Queryable, draft: FindingDraft, now: Date): Promise<boolean> {
  const inserted = await tx.query(
    `INSERT INTO monitor_findings (id, monitor_id, account_id, environment, conversation_id, turn_id, role, excerpt, severity, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (monitor_id, turn_id) DO NOTHING RETURNING 1`,
    [
      newId('monitorFinding'),
      draft.monitorId,
      draft.accountId,
      draft.environment,
      draft.conversationId,
      draft.turn.id,
      draft.turn.role,
      draft.excerpt,
      draft.severity,
      now,
    ],
  );
  return inserted.length > 0;
}
