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

/** The row's last message, said as whose it is ("You: …" for an answer; the customer's as written). */
export function lastLine(conversation: DeskConversation): string {
  const last = conversation.last_non_activity_message;
  if (!last) return '';
  return last.message_type === 1 ? `Answer: ${last.content}` : last.content;
}
