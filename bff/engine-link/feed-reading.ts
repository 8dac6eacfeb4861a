/**
 * Reading the engine's event feeds (for feed-tail.ts): each page recorded, then its cursor moved
 * on; an event only into a conversation served by the engine account whose feed it is.
 */
import type { Logger, Sql } from '../../shared/server/index.ts';
import { EngineCallError } from './engine-client.ts';
import type { EngineAccounts, EngineFeed } from './engine-accounts.ts';
import type { EngineEventRecorder } from './engine-events.ts';
import { findConversationByEngineId } from '../store/conversations.ts';
import { seenEngineEvents } from '../store/events-seen.ts';

export interface FeedReadingDeps {
  sql: Sql;
  engines: Pick<EngineAccounts, 'feeds' | 'scopeOfInbox'>;
  recorder: EngineEventRecorder;
  logger: Logger;
}

/** Reads one page of a feed; true when there is more to read at once. */
async function readPage({ sql, engines, recorder }: FeedReadingDeps, feed: EngineFeed): Promise<boolean> {
  const { scope, environment } = feed;
  const cursor = await feed.readCursor();
  const page = await feed.client.events(cursor, 100);
  // Most events came already (in the engine's answer or by webhook): one query finds them, and they are skipped.
  const seen = await seenEngineEvents(
    sql,
    page.events.map((event) => event.id),
  );
  for (const event of page.events) {
    if (seen.has(event.id)) continue;
    if (!event.conversation_id) {
      await recorder.recordAccountEvent(scope, environment, event);
      continue;
    }
    const conversation = await findConversationByEngineId(sql, event.conversation_id);
    if (conversation?.environment === environment && (await engines.scopeOfInbox(conversation.inboxId)) === scope)
      await recorder.record(conversation, [event]);
  }
  if (page.next && page.next !== cursor) await feed.writeCursor(page.next);
  return page.has_more;
}

/**
 * Reads every feed until it has nothing more. A feed that fails does not hold up the others: the
 * first failure is thrown once all were tried (the tick tries again); an account's feed the
 * engine refuses for good (its engine account deleted by another node meanwhile) is left alone.
 */
export async function readFeeds(deps: FeedReadingDeps): Promise<void> {
  let failure: unknown;
  for (const feed of await deps.engines.feeds()) {
    try {
      while (await readPage(deps, feed));
    } catch (error) {
      if (feed.scope !== null && error instanceof EngineCallError && !error.retryable) {
        deps.logger.warn(
          { err: error, accountId: feed.scope, environment: feed.environment },
          "the engine refused this account's feed",
        );
        continue;
      }
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
}
