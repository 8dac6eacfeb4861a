import type { Logger, SecretBox, Sql } from '../../shared/server/index.ts';
import type { ChangeBatch, Publisher } from '../realtime/publisher.ts';
import { clientEvents, contactIdOf, type ClientEvent } from '../client-api/client-events.ts';
import { conversationView } from '../client-api/conversation-views.ts';
import { findClientConversationByUuid } from '../client-api/store/client-views.ts';
import { findContactById, type ContactRecord } from '../client-api/store/contacts.ts';
import { findInboxByIdentifier } from '../store/inboxes.ts';
import type { CableRelay } from './cable-relay.ts';
import { roomInboxOf } from './room-channel.ts';

interface ContactPushDeps {
  sql: Sql;
  secrets: SecretBox;
  publisher: Publisher;
  logger: Logger;
  publicUrl: string;
  relay: CableRelay;
  /** Whether anyone may hear a contact's events: on one node, only when this node holds a subscription of it. */
  mayHear: (contactId: number) => boolean;
}

/**
 * Turns the publisher's batches of Client API contacts' conversations into Chatwoot's events, once,
 * on the node that published them, and hands them to the relay. A contact's batches are shaped and
 * told one after another, so that a client hears them in the order they were published.
 */
export function pushContactEvents({
  sql,
  secrets,
  publisher,
  logger,
  publicUrl,
  relay,
  mayHear,
}: ContactPushDeps): void {
  const queues = new Map<number, Promise<void>>();
  publisher.subscribe((batch) => {
    const contactId = contactIdOf(batch.conversation.customerRef);
    if (contactId === undefined || !mayHear(contactId)) return;
    const tell = async () => {
      const contact = await findContactById(sql, secrets, contactId);
      if (!contact) return;
      const events = [
        ...(await createdEvents(sql, publicUrl, batch, contact)),
        ...(await clientEvents(sql, publicUrl, batch, contact)),
      ];
      if (events.length > 0) relay.tell({ kind: 'events', contactId, events });
    };
    const queued = (queues.get(contactId) ?? Promise.resolve())
      .then(tell)
      .catch((error: unknown) => logger.warn({ err: error }, 'a /cable event could not be sent'));
    queues.set(contactId, queued);
    void queued.then(() => {
      if (queues.get(contactId) === queued) queues.delete(contactId);
    });
  });
}

/** `conversation.created` with the conversation as the Client API shows it (Chatwoot sends it to the contact too). */
async function createdEvents(
  sql: Sql,
  publicUrl: string,
  batch: ChangeBatch,
  contact: ContactRecord,
): Promise<ClientEvent[]> {
  if (!batch.changes.some((change) => change.type === 'conversation.created')) return [];
  const room = await roomInboxOf(sql, contact.inboxId);
  const inbox = room && (await findInboxByIdentifier(sql, room.identifier));
  const row = await findClientConversationByUuid(sql, batch.conversation.uuid);
  if (!inbox || !row) return [];
  const conversation = await conversationView({ sql, publicUrl }, inbox, contact, row);
  return [['conversation.created', { ...conversation, account_id: room.accountId }]];
}
