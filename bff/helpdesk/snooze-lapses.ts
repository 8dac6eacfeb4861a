/**
 * Snoozes that lapse: a conversation snoozed until a time is open again from that time (its status
 * is read against the clock), and this job makes that a change the consoles and webhooks hear. It
 * runs at start and then every few seconds on every node; each lapsed snooze is claimed by one
 * UPDATE, so one node tells it, once, and a restart misses none (the time is in the store).
 */
import type { Logger, Sql } from '../../shared/server/index.ts';
import type { Publisher } from '../realtime/publisher.ts';
import { CONVERSATION_COLUMNS, toConversationRecord, type ConversationRow } from '../store/conversations.ts';

const EVERY_MS = 5_000;

export interface SnoozeLapses {
  /** Ends every snooze whose time has come; gives how many. */
  runOnce(): Promise<number>;
  stop(): void;
}

export interface SnoozeLapsesDeps {
  sql: Sql;
  now: () => Date;
  publisher: Pick<Publisher, 'record' | 'publish'>;
  logger: Logger;
}

export function startSnoozeLapses({ sql, now, publisher, logger }: SnoozeLapsesDeps, everyMs = EVERY_MS): SnoozeLapses {
  async function runOnce(): Promise<number> {
    const at = now();
    const woken = await sql.transaction(async (tx) => {
      const rows = await tx.query<ConversationRow>(
        `UPDATE conversations c SET snoozed_until = NULL WHERE c.snoozed_until <= $1 RETURNING ${CONVERSATION_COLUMNS}`,
        [at],
      );
      const records = rows.map(toConversationRecord);
      // A lapsed snooze is told as a snooze until then, as a person's ending of one is.
      for (const record of records) await publisher.record(tx, record, [{ type: 'snoozed', until: at }]);
      return records;
    });
    for (const record of woken) publisher.publish(record, { type: 'snoozed', until: at });
    return woken.length;
  }
  const round = () =>
    void runOnce().catch((error: unknown) => logger.warn({ err: error }, 'lapsed snoozes are tried again next round'));
  const timer = everyMs > 0 ? setInterval(round, everyMs) : undefined;
  timer?.unref();
  if (timer) round();
  return { runOnce, stop: () => clearInterval(timer) };
}
