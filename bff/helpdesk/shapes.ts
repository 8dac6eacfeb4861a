import type { AccountRecord, Role } from './store/accounts.ts';
import type { AgentBotRecord } from './store/agent-bots.ts';
import type { AuditLogRecord } from './store/audit-log.ts';
import type { DeskConversation, DeskMessageRow } from './store/desk-conversations.ts';
import type { UserRecord } from './store/users.ts';
import { personPubsubToken } from './store/credentials.ts';
import { cityOfTimeZone } from '../widget/visitor-traits.ts';
import type { DeskAttachment } from '../../shared/index.ts';
import type {
  AccountView,
  AgentBot,
  DeskContentAttributes,
  DeskConversation as DeskConversationView,
  DeskMessage,
  Person,
  PlatformAccount,
  User,
} from '../../shared/schemas/helpdesk/index.ts';

/** The helpdesk's records as its APIs show them (Chatwoot's field names). */

export const platformAccountShape = (account: AccountRecord): PlatformAccount => ({
  id: account.id,
  name: account.name,
  locale: account.locale,
  domain: account.domain,
  support_email: account.supportEmail,
  status: account.status,
  custom_attributes: account.customAttributes,
  features: account.features,
  settings: account.settings,
  created_at: account.createdAt.toISOString(),
});

export const accountViewShape = (account: AccountRecord, role: Role | undefined): AccountView => ({
  ...platformAccountShape(account),
  role: role ?? null,
});

export const personShape = (user: UserRecord): Person => ({
  id: user.id,
  uid: user.email,
  name: user.name,
  available_name: user.displayName ?? user.name,
  display_name: user.displayName,
  email: user.email,
  confirmed: true,
  custom_attributes: user.customAttributes,
});

export const userShape = (
  user: UserRecord,
  accounts: { id: number; name: string; role: Role }[],
  accessToken?: string,
): User => ({
  ...personShape(user),
  accounts,
  ...(accessToken ? { access_token: accessToken, pubsub_token: personPubsubToken(accessToken) } : {}),
});

/** A bot; the answer that made it also carries its access token and the secret its webhooks are signed with. */
export const agentBotShape = (bot: AgentBotRecord, made?: { accessToken: string; secret: string }): AgentBot => ({
  id: bot.id,
  name: bot.name,
  description: bot.description,
  account_id: bot.accountId,
  outgoing_url: bot.outgoingUrl,
  bot_type: 'webhook',
  ...(made ? { access_token: made.accessToken, secret: made.secret } : {}),
});

export const auditLogShape = (entry: AuditLogRecord) => ({
  id: entry.id,
  auditable_id: entry.auditableId,
  auditable_type: entry.auditableType,
  action: entry.action,
  audited_changes: entry.auditedChanges,
  user_id: entry.userId,
  user_type: entry.userType,
  username: entry.username,
  associated_id: entry.accountId,
  associated_type: 'Account' as const,
  remote_address: entry.remoteAddress,
  created_at: Math.floor(entry.createdAt.getTime() / 1000),
});

const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

/** A message's first line, at most 160 characters: what a list row shows of it. */
const firstLine = (text: string) => {
  const line = text.trim().split('\n', 1)[0]!.trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
};

/** What a list row calls the customer: their name, else their e-mail, else "Visitor" and a short id. */
function displayName(conversation: DeskConversation): string {
  if (conversation.contactName) return conversation.contactName;
  if (conversation.contactEmail) return conversation.contactEmail;
  return `Visitor ${conversation.record.customerRef.replace(/^[a-z]+_/, '').slice(-4) || conversation.record.id}`;
}

/** What a widget visitor's browser told, as Chatwoot's contact `additional_attributes` name it. */
function visitorAttributes(visitor: DeskConversation['visitor']) {
  if (!visitor) return {};
  const { timeZone, browser } = visitor;
  return { ...(timeZone ? { time_zone: timeZone, city: cityOfTimeZone(timeZone) } : {}), browser };
}

/** A conversation as the people of its account see it. */
export const deskConversationShape = (conversation: DeskConversation): DeskConversationView => ({
  id: conversation.record.id,
  uuid: conversation.record.uuid,
  account_id: conversation.accountId,
  inbox_id: conversation.inboxDisplayId,
  status: conversation.status,
  handled_by: conversation.record.handledBy,
  snoozed_until: conversation.snoozedUntil && epoch(conversation.snoozedUntil),
  assignee_id: conversation.assigneeId,
  assignee: conversation.assignee && {
    id: conversation.assignee.id,
    name: conversation.assignee.name,
    available_name: conversation.assignee.availableName,
  },
  team_id: conversation.team?.id ?? null,
  team: conversation.team,
  labels: conversation.labels,
  display_name: displayName(conversation),
  last_non_activity_message: conversation.lastMessage && {
    id: conversation.lastMessage.id,
    content: firstLine(conversation.lastMessage.text),
    message_type: conversation.lastMessage.author === 'customer' ? 0 : 1,
    created_at: epoch(conversation.lastMessage.createdAt),
  },
  waiting_since: conversation.waitingSince && epoch(conversation.waitingSince),
  contact: {
    id: conversation.contactId,
    name: conversation.contactName,
    email: conversation.contactEmail,
    customer_ref: conversation.record.customerRef,
    identifier: conversation.contactIdentifier,
    custom_attributes: conversation.contactAttributes,
    additional_attributes: visitorAttributes(conversation.visitor),
  },
  page_url: conversation.pageUrl,
  unread_count: conversation.unreadCount,
  agent_last_seen_at: conversation.agentLastSeenAt && epoch(conversation.agentLastSeenAt),
  contact_last_read_id: conversation.record.customerLastReadId,
  last_activity_at: epoch(conversation.lastActivityAt),
  created_at: epoch(conversation.record.createdAt),
});

/**
 * Who wrote a message: the customer (a contact), the AI (an agent bot without an id: it is no bot
 * of the account), a person or an agent bot of the account (known since they are recorded with
 * their answers; an answer made elsewhere is a person's without an id), or nobody (notices).
 */
function senderOf(row: DeskMessageRow): DeskMessage['sender'] {
  switch (row.author) {
    case 'customer':
      return { type: 'contact', name: row.contact_name ?? 'Customer' };
    case 'ai':
      return { type: 'agent_bot', id: null, name: 'AI assistant' };
    case 'human':
      if (row.sender_agent_bot_id !== null)
        return {
          type: 'agent_bot',
          id: row.sender_agent_bot_id,
          name: row.sender_agent_bot_name ?? row.author_name ?? 'Agent bot',
        };
      if (row.sender_user_id !== null && row.sender_user_name !== null) {
        return {
          type: 'user',
          id: row.sender_user_id,
          name: row.sender_user_name,
          available_name: row.sender_user_display_name ?? row.sender_user_name,
        };
      }
      return { type: 'user', id: row.sender_user_id, name: row.author_name ?? 'Support' };
    default:
      return null;
  }
}

/**
 * What a message row may carry beside its words (messages.attributes and submitted_values): read
 * when the query selects them.
 */
export interface DeskMessageExtras {
  attributes?: {
    choices?: { label: string; value: string }[];
    card?: { title: string; fields: { label: string; value: string }[] };
  } | null;
  submitted_values?: unknown;
}

/** Chatwoot's `content_attributes` of a message: the AI's buttons or card as the customer saw them, and what they answered. */
export function deskContentAttributes(row: DeskMessageExtras): DeskContentAttributes {
  const shown: DeskContentAttributes = {};
  const { choices, card } = row.attributes ?? {};
  if (choices?.length) shown.items = choices.map((choice) => ({ title: choice.label, value: choice.value }));
  if (card) {
    shown.card = card;
    shown.items = [{ title: card.title, description: card.fields.map((f) => `${f.label}: ${f.value}`).join('\n') }];
  }
  if (row.submitted_values !== null && row.submitted_values !== undefined)
    shown.submitted_values = row.submitted_values;
  return shown;
}

/** A message as the people see it, with who wrote it (and the customer's files, when it has some). */
export const deskMessageShape = (
  row: DeskMessageRow & DeskMessageExtras,
  attachments: readonly DeskAttachment[] = [],
): DeskMessage => ({
  id: row.id,
  content: row.text,
  message_type:
    row.author === 'customer' ? 0 : row.author === 'system' ? (row.content_type === 'input_csat' ? 3 : 2) : 1,
  content_type: row.content_type,
  private: row.private,
  created_at: epoch(row.created_at),
  conversation_id: row.conversation_id,
  sender: senderOf(row),
  content_attributes: deskContentAttributes(row),
  ...(attachments.length ? { attachments: [...attachments] } : {}),
});
