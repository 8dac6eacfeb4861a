/**
 * A step's changes as the people of an inbox hear them over `/cable`, with Chatwoot's event names
 * and payloads (app/listeners/action_cable_listener.rb): every message (private notes included,
 * `echo_id` where the client sent one), the conversation for `conversation.created`,
 * `conversation.status_changed`, `assignee.changed` and `conversation.read`, and the contact's
 * and the AI's typing. A person's own typing (from the console's `/desk` socket) is not echoed.
 */
import type { Sql } from '../../shared/server/index.ts';
import { SERVER_MESSAGE_ID_PREFIX } from '../client-api/message-views.ts';
import { deskConversationShape, deskMessageShape } from '../helpdesk/shapes.ts';
import { deskMessages, findDeskConversation, type DeskConversation } from '../helpdesk/store/desk-conversations.ts';
import type { Change, ChangeBatch } from '../realtime/publisher.ts';
import { echoOf, type ClientEvent } from '../client-api/client-events.ts';

/** Changes that tell of the conversation itself: the event named, with the conversation as people see it. */
const CONVERSATION_EVENTS: Partial<Record<Change['type'], string>> = {
  'conversation.created': 'conversation.created',
  closed: 'conversation.status_changed',
  reopened: 'conversation.status_changed',
  handed_over: 'conversation.status_changed',
  handed_back: 'conversation.status_changed',
  snoozed: 'conversation.status_changed',
  assigned: 'assignee.changed',
  'customer.read': 'conversation.read',
};

/** The batch's events for the people, or none when the inbox is of no account. */
export async function personEvents(
  sql: Sql,
  { conversation, changes }: ChangeBatch,
  now: Date,
): Promise<{ accountId: number; events: ClientEvent[] } | undefined> {
  const [row] = await sql.query<{ account_id: number | null }>('SELECT account_id FROM inboxes WHERE id = $1', [
    conversation.inboxId,
  ]);
  if (row?.account_id == null) return undefined;
  const desk = await findDeskConversation(sql, row.account_id, conversation.id, now);
  if (!desk) return undefined;
  const shaped = { ...deskConversationShape(desk), account_id: desk.accountId };
  const events: ClientEvent[] = [];
  for (const change of changes) {
    const named = CONVERSATION_EVENTS[change.type];
    if (named) events.push([named, shaped]);
    else events.push(...(await messageOrTypingEvents(sql, desk, shaped, change)));
  }
  return { accountId: row.account_id, events };
}

async function messageOrTypingEvents(
  sql: Sql,
  desk: DeskConversation,
  conversation: unknown,
  change: Change,
): Promise<ClientEvent[]> {
  const message = async (id: number, extra: object = {}) => {
    const [found] = await deskMessages(sql, desk.record.id, { ids: [id] });
    return found && { ...deskMessageShape(found), account_id: desk.accountId, inbox_id: desk.inboxDisplayId, ...extra };
  };
  const typing = (on: boolean, user: object): ClientEvent => [
    on ? 'conversation.typing_on' : 'conversation.typing_off',
    { conversation, user, is_private: false },
  ];
  switch (change.type) {
    case 'message.created':
    case 'survey.asked': {
      const created = change.type === 'message.created' ? change.message : change.question;
      const echoed = created.message_id && !created.message_id.startsWith(SERVER_MESSAGE_ID_PREFIX);
      const shaped = await message(created.id, echoed ? { echo_id: created.message_id } : {});
      return shaped ? [['message.created', shaped]] : [];
    }
    case 'note.created': {
      const shaped = await message(change.messageId);
      return shaped ? [['message.created', shaped]] : [];
    }
    case 'message.status':
    case 'message.answered': {
      const status = change.type === 'message.status' ? { status: change.status } : {};
      const shaped = await message(change.messageId, { ...(await echoOf(sql, change.messageId)), ...status });
      return shaped ? [['message.updated', shaped]] : [];
    }
    case 'customer.typing':
      return [typing(change.typing, { type: 'contact', id: desk.contactId, name: desk.contactName })];
    case 'typing':
      return change.who === 'ai' ? [typing(change.typing, { type: 'agent_bot', id: null })] : [];
    default:
      return [];
  }
}
