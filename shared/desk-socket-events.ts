import type {
  DeskConversationChanged,
  DeskPresenceChange,
  DeskReadChange,
  DeskTypingChange,
  DeskTypingCommand,
  DeskWatchCommand,
} from './schemas/desk-socket.ts';
import type { Ack } from './socket-events.ts';
import type { CallCommand, CallEnded, CallJoined, CallRinging, CallSignalCommand } from './schemas/call.ts';

/**
 * The Socket.IO event map of the `/desk` namespace, shared by the BFF and the agent console. A
 * person connects with `auth: {token, account_id}` (their access token or console session token,
 * never a widget token), and hears of the conversations of the inboxes they may see.
 */
export const DESK_NAMESPACE = '/desk';

export interface DeskServerEvents {
  'conversation:changed': (change: DeskConversationChanged) => void;
  'presence:changed': (change: DeskPresenceChange) => void;
  'typing:changed': (change: DeskTypingChange) => void;
  'read:changed': (change: DeskReadChange) => void;
  /** The AI's answer being written in a watched conversation: `text` is the next piece, to add to the pieces before. */
  'message:delta': (delta: { conversation_id: number; text: string }) => void;
  /** Person calls (issue 30): a customer calls; a step of the negotiation; the call ended, or another person took it. */
  'call:ringing': (ringing: CallRinging) => void;
  'call:signalled': (signal: CallSignalCommand) => void;
  'call:ended': (ended: CallEnded) => void;
}

export interface DeskClientEvents {
  'conversation:watch': (
    watch: DeskWatchCommand,
    ack?: (result: Ack<{ conversation_id: number | null }>) => void,
  ) => void;
  'typing:set': (typing: DeskTypingCommand, ack?: (result: Ack<null>) => void) => void;
  'call:accept': (call: CallCommand, ack?: (result: Ack<CallJoined & { conversation_id: number }>) => void) => void;
  'call:decline': (call: CallCommand, ack?: (result: Ack<null>) => void) => void;
  'call:signal': (signal: CallSignalCommand, ack?: (result: Ack<null>) => void) => void;
  'call:hang_up': (call: CallCommand, ack?: (result: Ack<null>) => void) => void;
}

export interface DeskSocketAuth {
  token: string;
  account_id: number;
}
