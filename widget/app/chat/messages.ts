import type { MessageStatus, ReplyCard, ReplyChoice, WidgetAttachment, WidgetMessage } from '../../../shared/index.ts';

/** A message as the widget shows it: a stored one, or the customer's own still on its way. */
export interface ShownMessage {
  key: string;
  author: WidgetMessage['author'];
  authorName: string | null;
  text: string;
  createdAt: string;
  status: 'sending' | 'sent' | 'delivered' | 'read' | 'failed';
  id?: number;
  messageId?: string | null;
  choices: ReplyChoice[] | null;
  card: ReplyCard | null;
  /** Photos and PDFs sent with it. */
  attachments?: WidgetAttachment[] | undefined;
  /** A notice of a move, said in the widget's language (`text` is the English). */
  notice?: WidgetMessage['notice'];
}

/** The customer's message not stored yet, shown as on its way (or failed, waiting for Retry). */
export function pendingMessage(
  item: { messageId: string; text: string; createdAt: string },
  failed: boolean,
): ShownMessage {
  return {
    key: item.messageId,
    author: 'customer',
    authorName: null,
    text: item.text,
    createdAt: item.createdAt,
    status: failed ? 'failed' : 'sending',
    messageId: item.messageId,
    choices: null,
    card: null,
  };
}

/**
 * Stored messages merged into those shown, once each: a stored message takes the place of the
 * customer's own copy in flight (same `message_id`), and one shown already is dropped. `statuses`
 * holds statuses pushed before their message arrived (a push can overtake the answer to this tab's
 * own send). Gives back the list unchanged (the same array) when nothing was new, and whether an
 * answer (not the customer's own message) was among the new ones.
 */
export function mergeStored(
  shown: ShownMessage[],
  batch: readonly WidgetMessage[],
  statuses: ReadonlyMap<number, MessageStatus>,
): { messages: ShownMessage[]; answered: boolean } {
  let messages = shown;
  let answered = false;
  for (const message of batch) {
    if (messages.some((existing) => existing.id === message.id)) continue;
    const stored: ShownMessage = {
      key: message.message_id && message.author === 'customer' ? message.message_id : `m${message.id}`,
      id: message.id,
      author: message.author,
      authorName: message.author_name,
      text: message.text,
      createdAt: message.created_at,
      status: (message.status === 'sent' && statuses.get(message.id)) || message.status,
      messageId: message.message_id,
      choices: message.choices,
      card: message.card,
      attachments: message.attachments,
      notice: message.notice,
    };
    const pending = message.message_id
      ? messages.findIndex((existing) => existing.id === undefined && existing.messageId === message.message_id)
      : -1;
    messages =
      pending >= 0 ? messages.map((existing, index) => (index === pending ? stored : existing)) : [...messages, stored];
    if (message.author !== 'customer') answered = true;
  }
  return { messages: messages === shown ? shown : messages.sort(byOrder), answered };
}

/** Stored messages in id order; the customer's messages in flight stay last, in the order written. */
function byOrder(a: ShownMessage, b: ShownMessage): number {
  if (a.id !== undefined && b.id !== undefined) return a.id - b.id;
  return a.id === undefined ? (b.id === undefined ? 0 : 1) : -1;
}
