import { handshakeRefusal } from '../../shared/handshake.ts';
import { ParleyError } from '../../shared/index.ts';
import type { Namespace, Server } from 'socket.io';
import type { Logger, SecretBox, Sql } from '../../shared/server/index.ts';
import type { ChangeBatch, Publisher } from '../realtime/publisher.ts';
import { inboxSuspended } from '../helpdesk/store/accounts.ts';
import { findContactById, findContactByPubsubToken, type ContactRecord } from './store/contacts.ts';
import { clientEvents, contactIdOf } from './client-events.ts';
import { createClientSocketAdmission } from './socket-admission.ts';

type ClientSocketAdmission = ReturnType<typeof createClientSocketAdmission>;

/** The Socket.IO namespace where custom clients subscribe with a contact's `pubsub_token`. */
export const CLIENT_NAMESPACE = '/client';

/** Every socket of one contact joins this room. */
export const contactRoom = (contactId: number) => `contact:${contactId}`;
/** Every socket of every contact of one inbox joins this room (closed at once when its account is suspended or deleted). */
export const clientInboxRoom = (inboxId: string) => `inbox:${inboxId}`;

interface ClientSocketDeps {
  sql: Sql;
  /** Finds a contact by its pubsub_token's keyed hash and opens its capabilities (issue 33). */
  secrets: SecretBox;
  publisher: Publisher;
  logger: Logger;
  publicUrl?: string | undefined;
  /** How many proxies in front append to X-Forwarded-For (for the per-address cap). */
  trustProxyHops?: number | undefined;
}

/**
 * Realtime for custom clients of the Client API, with Chatwoot's event names and payloads:
 * `message.created` (with the `echo_id` the client sent), `message.updated`,
 * `conversation.status_changed`, `conversation.typing_on` / `conversation.typing_off`. Only
 * conversations of Client API contacts (`ctc_…`) are sent, to the contact's room.
 */
export function addClientSocket(
  io: Server,
  { sql, secrets, publisher, logger, publicUrl = '', trustProxyHops = 0 }: ClientSocketDeps,
): void {
  const namespace = io.of(CLIENT_NAMESPACE);
  authenticateContacts(namespace, sql, secrets, createClientSocketAdmission(trustProxyHops));
  namespace.on(
    'connection',
    (socket) =>
      void socket.join([contactRoom(socket.data.contactId as number), clientInboxRoom(socket.data.inboxId as string)]),
  );

  // Each batch is shaped with queries of its own; a contact's batches are shaped and sent one after
  // another, so that a client hears them in the order they were published (typing_on before the reply).
  const queues = new Map<number, Promise<void>>();
  publisher.subscribe((batch) => {
    const contactId = contactIdOf(batch.conversation.customerRef);
    if (contactId === undefined) return;
    const send = async () => {
      const contact = await findContactById(sql, secrets, contactId);
      if (!contact) return;
      for (const [name, payload] of await clientEvents(sql, publicUrl, batch, contact))
        namespace.to(contactRoom(contactId)).emit(name, payload);
    };
    const queued = (queues.get(contactId) ?? Promise.resolve())
      .then(send)
      .catch((error: unknown) => logger.warn({ err: error }, 'a Client API event could not be sent'));
    queues.set(contactId, queued);
    void queued.then(() => {
      if (queues.get(contactId) === queued) queues.delete(contactId);
    });
  });
}

/**
 * Lets in a socket with a contact's `pubsub_token` that `admission` takes (origin, caps), and keeps
 * its contact and inbox for the rooms it joins.
 */
function authenticateContacts(
  namespace: Namespace,
  sql: Sql,
  secrets: SecretBox,
  admission: ClientSocketAdmission,
): void {
  namespace.use((socket, next) => {
    const token = (socket.handshake.auth as { pubsub_token?: unknown }).pubsub_token;
    if (typeof token !== 'string' || !/^[\w-]{8,128}$/.test(token))
      return next(handshakeRefusal('unauthorized', 'send the contact pubsub_token as auth.pubsub_token'));
    (async () => {
      const contact = await findContactByPubsubToken(sql, secrets, token);
      if (!contact) return next(handshakeRefusal('unauthorized', 'the pubsub_token is not valid'));
      // A suspended account's contacts are refused, as its Client API is.
      if (await inboxSuspended(sql, contact.inboxId))
        return next(
          Object.assign(new Error('account_suspended: this account is suspended'), {
            data: { code: 'account_suspended' },
          }),
        );
      await admission.admit(sql, socket, contact);
      socket.data.contactId = contact.id;
      socket.data.inboxId = contact.inboxId;
      next();
    })().catch((error: unknown) =>
      next(
        error instanceof ParleyError
          ? handshakeRefusal(error.code, error.message)
          : handshakeRefusal('unauthorized', 'the pubsub_token could not be checked'),
      ),
    );
  });
}
