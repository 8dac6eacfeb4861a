import type { ShownMessage } from '../../chat/messages.ts';

/**
 * What a customer's message says of itself. The BFF marks a message read when an answer comes
 * (bff/engine-events.ts) or people open the conversation in the helpdesk, and an answer by the AI
 * is no one reading it: "Read" shows only when the first answer after the message is a person's;
 * else it was delivered. With no answer yet, "read" can only mean a person opened it, whoever
 * handles the conversation now (a hand-back to the AI does not unread it). A person who only
 * looked while the AI answered goes unsaid, which claims less than happened, never more. Any
 * answer after a message says it arrived: the BFF pushes no status with the AI's answer.
 */
export function shownStatus(messages: readonly ShownMessage[], index: number): ShownMessage['status'] {
  const status = messages[index]!.status;
  const answer = messages.slice(index).find((message) => message.author === 'ai' || message.author === 'human');
  if (status === 'read') return !answer || answer.author === 'human' ? 'read' : 'delivered';
  return status === 'sent' && answer ? 'delivered' : status;
}
