import type { Logger, Sql } from '../../shared/server/index.ts';
import type { Publisher } from '../realtime/publisher.ts';
import type { CableRelay } from './cable-relay.ts';
import { personEvents } from './person-events.ts';

interface PersonPushDeps {
  sql: Sql;
  publisher: Publisher;
  logger: Logger;
  now: () => Date;
  relay: CableRelay;
  /** Whether anyone may hear people's events: on one node, only when it holds a person's subscription. */
  mayHear: () => boolean;
}

/**
 * Turns the publisher's batches into the people's Chatwoot events, once, on the node that published
 * them, and hands them to the relay. A conversation's batches are shaped and told one after
 * another, so that a client hears them in the order they were published.
 */
export function pushPersonEvents({ sql, publisher, logger, now, relay, mayHear }: PersonPushDeps): void {
  const queues = new Map<number, Promise<void>>();
  publisher.subscribe((batch) => {
    if (!mayHear()) return;
    const id = batch.conversation.id;
    const tell = async () => {
      const told = await personEvents(sql, batch, now());
      if (told && told.events.length > 0)
        relay.tell({
          kind: 'people',
          accountId: told.accountId,
          inboxId: batch.conversation.inboxId,
          events: told.events,
        });
    };
    const queued = (queues.get(id) ?? Promise.resolve())
      .then(tell)
      .catch((error: unknown) => logger.warn({ err: error }, "a person's /cable event could not be sent"));
    queues.set(id, queued);
    void queued.then(() => {
      if (queues.get(id) === queued) queues.delete(id);
    });
  });
}
