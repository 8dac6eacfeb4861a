import { ALWAYS_OPEN } from '../store/inbox-presentation.ts';
import type { ClientInbox } from '../store/inboxes.ts';
import type { ClientConversationRow as ConversationRow, ClientMessageRow as MessageRow } from './store/client-views.ts';
import type { ContactRecord } from './store/contacts.ts';
import type { PublicAttachment } from '../../shared/index.ts';
import type { PublicContact, PublicContactRecord, PublicConversation, PublicInbox, PublicMessage } from './schemas.ts';

/** The Client API's records, shaped as Chatwoot's views render them (docs: shared/reference/chatwoot-client-api.md). */

const epoch = (date: Date | null | undefined): number => (date ? Math.floor(date.getTime() / 1000) : 0);

export function inboxShape(inbox: ClientInbox): PublicInbox {
  return {
    identifier: inbox.identifier,
    name: inbox.name,
    timezone: inbox.timezone,
    // The people's hours as set (the AI answers at every hour); open all week while never set.
    working_hours: [...(inbox.presentation.workingHours ?? ALWAYS_OPEN)],
    working_hours_enabled: inbox.workingHoursEnabled,
    csat_survey_enabled: inbox.surveyEnabled,
    greeting_enabled: inbox.greetingEnabled,
    identity_validation_enabled: inbox.hmacMandatory,
  };
}

export function contactShape(contact: ContactRecord): PublicContact {
  // The id is the person's, as Chatwoot's contact id is shared by all contact-inboxes of one contact.
  return {
    id: contact.personId,
    source_id: contact.sourceId,
    pubsub_token: contact.pubsubToken,
    name: contact.name,
    email: contact.email,
    phone_number: contact.phoneNumber,
  };
}

/** The contact record (PATCH, and inside conversations): Chatwoot's fields, with its capabilities too. */
export function contactRecordShape(contact: ContactRecord): PublicContactRecord {
  return {
    ...contactShape(contact),
    identifier: contact.identifier,
    custom_attributes: contact.customAttributes,
    additional_attributes: {},
    created_at: epoch(contact.createdAt),
    updated_at: epoch(contact.updatedAt),
  };
}

/** 0 incoming, 1 outgoing, 2 activity, 3 template (the survey question). */
export function messageType(row: Pick<MessageRow, 'author' | 'content_type'>): 0 | 1 | 2 | 3 {
  if (row.author === 'customer') return 0;
  if (row.author === 'system') return row.content_type === 'input_csat' ? 3 : 2;
  return 1;
}

/** A message as the contact sees it; `attachments` (Chatwoot's shape) only when it has files. */
export function messageShape(
  row: MessageRow,
  contact: ContactRecord,
  botName: string,
  attachments: readonly PublicAttachment[] = [],
): PublicMessage {
  const contentType =
    row.content_type !== 'text'
      ? row.content_type
      : row.attributes?.choices?.length
        ? 'input_select'
        : row.attributes?.card
          ? 'cards'
          : 'text';
  const contentAttributes: Record<string, unknown> = {};
  if (row.attributes?.choices?.length)
    contentAttributes['items'] = row.attributes.choices.map((choice) => ({ title: choice.label, value: choice.value }));
  if (row.attributes?.card) {
    const card = row.attributes.card;
    contentAttributes['items'] = [
      {
        title: card.title,
        description: card.fields.map((field) => `${field.label}: ${field.value}`).join('\n'),
        actions: [],
      },
    ];
  }
  if (row.submitted_values !== null && row.submitted_values !== undefined)
    contentAttributes['submitted_values'] = row.submitted_values;
  return {
    id: row.id,
    content: row.text,
    message_type: messageType(row),
    content_type: contentType,
    content_attributes: contentAttributes,
    created_at: epoch(row.created_at),
    conversation_id: row.conversation_display_id,
    ...(attachments.length ? { attachments: [...attachments] } : {}),
    ...senderOf(row, contact, botName),
  };
}

function senderOf(row: MessageRow, contact: ContactRecord, botName: string): Pick<PublicMessage, 'sender'> {
  switch (row.author) {
    case 'customer':
      return {
        sender: {
          id: contact.personId,
          name: contact.name,
          email: contact.email,
          phone_number: contact.phoneNumber,
          identifier: contact.identifier,
          custom_attributes: contact.customAttributes,
          additional_attributes: {},
          thumbnail: '',
          blocked: false,
          type: 'contact',
        },
      };
    case 'ai':
      return { sender: { id: 1, name: botName, avatar_url: '', type: 'agent_bot' } };
    case 'human': {
      const name = row.author_name ?? 'Support';
      return {
        sender: {
          id: 0,
          name,
          available_name: name,
          avatar_url: '',
          type: 'user',
          availability_status: 'online',
          thumbnail: '',
        },
      };
    }
    default:
      return {};
  }
}

export function conversationShape(
  conversation: ConversationRow,
  inbox: ClientInbox,
  contact: ContactRecord,
  messages: PublicMessage[],
): PublicConversation {
  return {
    id: conversation.id,
    uuid: conversation.uuid,
    inbox_id: inbox.displayId,
    contact_last_seen_at: epoch(conversation.contact_last_seen_at),
    status: conversation.status,
    agent_last_seen_at: epoch(conversation.agent_last_seen_at),
    messages,
    contact: contactRecordShape(contact),
  };
}
