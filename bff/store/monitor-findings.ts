import type { MonitorFindingData } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import type { ConversationRecord } from './conversations.ts';

/**
 * Keeps what a monitor found in a conversation, under the helpdesk account of the conversation's
 * inbox (the event names no account: the conversation decides whose it is), in the conversation's
 * environment (an event is taken only for a conversation of the environment that sent it:
 * engine-link/feed-reading.ts, webhook-routes.ts). One statement; an event kept before (by another
 * path) changes nothing.
 */
export async function insertMonitorFinding(
  tx: Queryable,
  conversation: ConversationRecord,
  finding: { engineEventId: string; data: MonitorFindingData },
  at: Date,
): Promise<void> {
  const { data } = finding;
  await tx.query(
    `INSERT INTO monitor_findings
       (engine_event_id, account_id, conversation_id, environment, monitor_id, monitor_name, engine_message_id, excerpt,
        severity, created_at)
     SELECT $1, i.account_id, $2, $10, $3, $4, $5, $6, $7, $8 FROM inboxes i WHERE i.id = $9
     ON CONFLICT (engine_event_id) DO NOTHING`,
    [
      finding.engineEventId,
      conversation.id,
      data.monitor_id,
      data.monitor_name ?? null,
      data.message_id,
      data.excerpt,
      data.severity,
      at,
      conversation.inboxId,
      conversation.environment,
    ],
  );
}
