/**
 * A step's changes as the Client API contact hears them, with Chatwoot's event names and payloads
 * (`message.created` with the `echo_id` the client sent, `message.updated`,
 * `conversation.status_changed`, `conversation.typing_on` / `typing_off`): for every realtime
 * transport of contacts alike.
 */
import type { Sql } from '../../shared/server/index.ts';
import type { ChangeBatch } from '../realtime/publisher.ts';
import { loadClientMessage, SERVER_MESSAGE_ID_PREFIX } from './message-views.ts';
import { findClientMessage } from './store/client-views.ts';
import type { ContactRecord } from './store/contacts.ts';

/** A Chatwoot event: its name and its payload. */
export type ClientEvent = [name: string, payload: unknown];

/** The contact a conversation belongs to, when a Client API contact owns it (`ctc_…`). */
export const contactIdOf = (customerRef: string): number | undefined => {
  const match = /^ctc_(\d+)$/.exec(customerRef);
  return match ? Number(match[1]) : undefined;
};

/** `{ echo_id }` of a contact's message sent with one (Chatwoot's clients match their own messages by it), or nothing. */
export async function echoOf(sql: Sql, messageId: number): Promise<{ echo_id?: string }> {
  const row = await findClientMessage(sql, messageId);
  const sent = row?.author === 'customer' ? row.message_id : null;
  return sent && !sent.startsWith(SERVER_MESSAGE_ID_PREFIX) ? { echo_id: sent } : {};
}

/** One batch, shaped for the contact, in order. Notes, notices and the contact's own typing are left out. */
export async function clientEvents(
  sql: Sql,
  publicUrl: string,
  { conversation, changes }: ChangeBatch,
  contact: ContactRecord,
): Promise<ClientEvent[]> {
  const events: ClientEvent[] = [];
  const message = async (id: number) => loadClientMessage(sql, id, contact, publicUrl);
  for (const change of changes) {
    switch (change.type) {
      case 'message.created':
      case 'survey.asked': {
        const created = change.type === 'message.created' ? change.message : change.question;
        const shaped = await message(created.id);
        // Activity messages (notices) are not for the contact, as in Chatwoot.
        if (!shaped || shaped.message_type === 2) break;
        const echoed =
          created.author === 'customer' &&
          created.message_id &&
          !created.message_id.startsWith(SERVER_MESSAGE_ID_PREFIX);
        events.push(['message.created', { ...shaped, ...(echoed ? { echo_id: created.message_id } : {}) }]);
        break;
      }
      case 'message.status': {
        const shaped = await message(change.messageId);
        if (shaped)
          events.push([
            'message.updated',
            { ...shaped, ...(await echoOf(sql, change.messageId)), status: change.status },
          ]);
        break;
      }
      case 'message.answered': {
        const shaped = await message(change.messageId);
        if (shaped) events.push(['message.updated', { ...shaped, ...(await echoOf(sql, change.messageId)) }]);
        break;
      }
      case 'typing':
        events.push([
          change.typing ? 'conversation.typing_on' : 'conversation.typing_off',
          {
            conversation: { id: conversation.id },
            user: { type: change.who === 'ai' ? 'agent_bot' : 'user' },
            is_private: false,
          },
        ]);
        break;
      case 'closed':
        events.push([
          'conversation.status_changed',
          { id: conversation.id, uuid: conversation.uuid, status: 'resolved' },
        ]);
        break;
      case 'reopened':
        events.push(['conversation.status_changed', { id: conversation.id, uuid: conversation.uuid, status: 'open' }]);
        break;
      default:
        // The contact's own typing and reads are for the people answering; handovers show as messages;
        // assignments and snoozes are the people's; private notes never reach the contact.
        break;
    }
  }
  return events;
}
