import type { ShownMessage } from '../../chat/messages.ts';

/**
 * What a customer's message says of itself. The BFF marks a message read when an answer comes
 * (bff/engine-events.ts) or people open the conversation in the helpdesk, and an answer by the AI
 * is no one reading it: "Read" shows only when the first answer after the message is a person's
 * (or, with none yet, a person is handling the conversation); else it was delivered. A person who
 * only looked while the AI answered goes unsaid, which claims less than happened, never more. Any
 * answer after a message says it arrived: the BFF pushes no status with the AI's answer.
 */
export function shownStatus(
  messages: readonly ShownMessage[],
  index: number,
  handledBy: 'ai' | 'human',
): ShownMessage['status'] {
  const status = messages[index]!.status;
  const answer = messages.slice(index).find((message) => message.author === 'ai' || message.author === 'human');
  if (status === 'read') return (answer?.author ?? handledBy) === 'human' ? 'read' : 'delivered';
  return status === 'sent' && answer ? 'delivered' : status;
}
