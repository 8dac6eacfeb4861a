import type { DeskConversation } from './types.ts';

/** What the console remembers of a listed conversation, to notice what is new in the next read. */
export interface Seen {
  status: DeskConversation['status'];
  unread: number;
}

/** What is new since the last read of the list: customers who started waiting, and new messages in one's own conversations. */
export interface Arrivals {
  handovers: DeskConversation[];
  messages: DeskConversation[];
}

/**
 * Compares a fresh list with what was seen: a conversation that became open (handed over) is a
 * new handover; one assigned to `me` whose unread count grew has a new message. The open
 * conversation (`watching`, when the person looks at it) is not news.
 */
export function arrivals(
  seen: ReadonlyMap<number, Seen>,
  list: readonly DeskConversation[],
  me: number,
  watching: number | undefined,
): Arrivals {
  const handovers: DeskConversation[] = [];
  const messages: DeskConversation[] = [];
  for (const conversation of list) {
    const before = seen.get(conversation.id);
    if (conversation.status === 'open' && before?.status !== 'open') handovers.push(conversation);
    else if (
      conversation.assignee_id === me &&
      conversation.id !== watching &&
      conversation.unread_count > (before?.unread ?? 0)
    )
      messages.push(conversation);
  }
  return { handovers, messages };
}

/** How many conversations want the person (for the tab's title): open and nobody's, or theirs with unread messages. */
export function attentionCount(list: readonly DeskConversation[], me: number): number {
  return list.filter(
    (conversation) =>
      conversation.status === 'open' &&
      (conversation.assignee_id === null || (conversation.assignee_id === me && conversation.unread_count > 0)),
  ).length;
}

/** The tab's title, with the count first when something wants the person ("(2) Parley · Conversations"). */
export function titleWith(count: number): string {
  return count > 0 ? `(${count}) Parley · Conversations` : 'Parley · Conversations';
}
