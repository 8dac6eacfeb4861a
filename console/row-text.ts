import type { DeskConversation } from './types.ts';
import { sinceText } from './format.ts';

/**
 * A list row's time: how long the customer has waited for people ("waiting 4 min") when people
 * have it and the customer's last message is unanswered, else how long since anything happened.
 */
export function rowTime(conversation: DeskConversation, nowMs: number): string {
  const since = conversation.waiting_since ?? (conversation.unread_count > 0 ? conversation.last_activity_at : null);
  if (conversation.status === 'open' && since !== null) return `waiting ${sinceText(since, nowMs)}`;
  return sinceText(conversation.last_activity_at, nowMs);
}

/**
 * Who the row's customer is: their name or e-mail when they gave one, else what their browser told
 * ("Visitor from Berlin · Chrome"), else the BFF's "Visitor" and a short id.
 */
export function rowName(conversation: Pick<DeskConversation, 'display_name' | 'contact'>): string {
  const { name, email, additional_attributes: told } = conversation.contact;
  if (name || email || (!told.city && !told.browser)) return conversation.display_name;
  return [told.city ? `Visitor from ${told.city}` : 'Visitor', told.browser].filter(Boolean).join(' · ');
}

/** The row's last message, said as whose it is ("You: …" for an answer; the customer's as written). */
export function lastLine(conversation: DeskConversation): string {
  const last = conversation.last_non_activity_message;
  if (!last) return '';
  return last.message_type === 1 ? `Answer: ${last.content}` : last.content;
}
