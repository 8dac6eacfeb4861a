import type { WidgetMessage } from './schemas/widget.ts';
import type {
  CallAccepted,
  CallCommand,
  CallEnded,
  CallJoined,
  CallSignalCommand,
  CallStartCommand,
} from './schemas/call.ts';
import type {
  AvailabilityChange,
  ConversationClosed,
  ConversationNotice,
  MessageDelta,
  MessageUpdate,
  ReadCommand,
  ReadResult,
  TypingChange,
  TypingCommand,
} from './schemas/socket.ts';

/**
 * The Socket.IO event map of the `/widget` namespace, shared by the BFF and the widget. Payload
 * types come from the zod schemas in `schemas/socket.ts` (imported as types only, so the widget's
 * bundle holds no zod); the BFF validates every client payload with those schemas at run time.
 * Commands are imperative (`typing:set`), notifications past tense (`message:created`). Messages
 * are sent over HTTP only (`POST /v1/widget/conversations/{id}/messages`): one send path.
 */
export const WIDGET_NAMESPACE = '/widget';

/** An ack: the result, or an error with a stable code as on HTTP. */
export type Ack<T> = { ok: true; data: T } | { ok: false; error: { code: string; message: string } };

export interface WidgetServerEvents {
  'message:created': (message: WidgetMessage) => void;
  'message:updated': (update: MessageUpdate) => void;
  /** A piece of the AI's reply while an LLM writes it; the finished reply comes as message:created. */
  'message:delta': (delta: MessageDelta) => void;
  'typing:changed': (change: TypingChange) => void;
  'conversation:handed_over': (notice: ConversationNotice) => void;
  'conversation:handed_back': (notice: ConversationNotice) => void;
  /** People opened the resolved conversation again and answer it. */
  'conversation:reopened': (notice: ConversationNotice) => void;
  'conversation:closed': (notice: ConversationClosed) => void;
  /** Someone who answers the inbox came online, or the last one went away: the header and Call follow. */
  'availability:changed': (change: AvailabilityChange) => void;
  /** Person calls (issue 30): a person took the call, a step of their negotiation, the call's end. */
  'call:accepted': (accepted: CallAccepted) => void;
  'call:signalled': (signal: CallSignalCommand) => void;
  'call:ended': (ended: CallEnded) => void;
}

export interface WidgetClientEvents {
  'typing:set': (typing: TypingCommand) => void;
  'read:mark': (read: ReadCommand, ack?: (result: Ack<ReadResult>) => void) => void;
  'call:start': (start: CallStartCommand, ack?: (result: Ack<CallJoined>) => void) => void;
  'call:signal': (signal: CallSignalCommand, ack?: (result: Ack<null>) => void) => void;
  'call:hang_up': (call: CallCommand, ack?: (result: Ack<null>) => void) => void;
}

/** What a client puts in the handshake `auth`: the token, never in the URL. */
export interface WidgetSocketAuth {
  token: string;
}
