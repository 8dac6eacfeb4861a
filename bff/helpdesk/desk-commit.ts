/** The one way the changes people make to a conversation (notes, assignments, snoozes, a reopening) are kept. */
import type { Queryable, Sql } from '../../shared/server/index.ts';
import type { Change, Publisher } from '../realtime/publisher.ts';
import type { ConversationRecord } from '../store/conversations.ts';

export interface DeskCommitDeps {
  sql: Sql;
  publisher: Pick<Publisher, 'record' | 'publish'>;
}

export function createDeskCommit({ sql, publisher }: DeskCommitDeps) {
  /** A change people made: written and recorded for the webhooks in one transaction, then pushed to the sockets. */
  return async function commit<T>(
    conversation: ConversationRecord,
    write: (tx: Queryable) => Promise<{ value: T; change: Change }>,
  ): Promise<T> {
    const { value, change } = await sql.transaction(async (tx) => {
      const made = await write(tx);
      await publisher.record(tx, conversation, [made.change]);
      return made;
    });
    publisher.publish(conversation, change);
    return value;
  };
}

export type DeskCommit = ReturnType<typeof createDeskCommit>;
