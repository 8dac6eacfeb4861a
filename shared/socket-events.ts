import type { MessageStatus, WidgetMessage } from './schemas/widget.ts';

/**
 * The Socket.IO event map of the `/widget` namespace, shared by the BFF and the widget.
 * Commands are imperative (`message:send`), notifications past tense (`message:created`).
 * The map is compile-time only: the BFF validates every client payload at run time.
 */
export const WIDGET_NAMESPACE = '/widget';

export interface MessageUpdate {
  id: number;
  conversation_id: string;
  status: MessageStatus;
}

export interface TypingChange {
  conversation_id: string;
  /** Who is typing: the AI while it works on an answer, or a person. */
  who: 'ai' | 'human';
  typing: boolean;
}

export interface ConversationNotice {
  conversation_id: string;
}

export interface ConversationClosed extends ConversationNotice {
  /** Whether the AI resolved it. */
  resolved: boolean;
}

/** An ack: the result, or an error with a stable code as on HTTP. */
export type Ack<T> = { ok: true; data: T } | { ok: false; error: { code: string; message: string } };

export interface WidgetServerEvents {
  'message:created': (message: WidgetMessage) => void;
  'message:updated': (update: MessageUpdate) => void;
  'typing:changed': (change: TypingChange) => void;
  'conversation:handed_over': (notice: ConversationNotice) => void;
  'conversation:handed_back': (notice: ConversationNotice) => void;
  'conversation:closed': (notice: ConversationClosed) => void;
}

export interface WidgetClientEvents {
  'message:send': (message: { conversation_id: string; text: string; message_id: string }, ack: (result: Ack<WidgetMessage>) => void) => void;
  'typing:set': (typing: { conversation_id: string; typing: boolean }) => void;
  'read:mark': (read: { conversation_id: string; last_read_id: number }, ack?: (result: Ack<{ last_read_id: number; unread: number }>) => void) => void;
}

/** What a client puts in the handshake `auth`: the token, never in the URL. */
export interface WidgetSocketAuth {
  token: string;
}
