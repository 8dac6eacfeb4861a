import type {
  DeskConversationChanged,
  DeskReadChange,
  DeskTypingChange,
  DeskTypingCommand,
  DeskWatchCommand,
} from './schemas/desk-socket.ts';
import type { Ack } from './socket-events.ts';

/**
 * The Socket.IO event map of the `/desk` namespace, shared by the BFF and the agent console. A
 * person connects with `auth: {token, account_id}` (their access token or console session token,
 * never a widget token), and hears of the conversations of the inboxes they may see.
 */
export const DESK_NAMESPACE = '/desk';

export interface DeskServerEvents {
  'conversation:changed': (change: DeskConversationChanged) => void;
  'typing:changed': (change: DeskTypingChange) => void;
  'read:changed': (change: DeskReadChange) => void;
  /** The AI's answer being written in a watched conversation: `text` is the next piece, to add to the pieces before. */
  'message:delta': (delta: { conversation_id: number; text: string }) => void;
}

export interface DeskClientEvents {
  'conversation:watch': (
    watch: DeskWatchCommand,
    ack?: (result: Ack<{ conversation_id: number | null }>) => void,
  ) => void;
  'typing:set': (typing: DeskTypingCommand, ack?: (result: Ack<null>) => void) => void;
}

export interface DeskSocketAuth {
  token: string;
  account_id: number;
}
