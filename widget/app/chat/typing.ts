import type { Connection } from './socket.ts';
import type { Store } from './state.ts';

// While the customer types: tell the people answering at most this often, and "stopped" after this long.
const TYPING_EVERY_MS = 3_000;
const TYPING_IDLE_MS = 5_000;

/** That the customer is typing, told to the people answering over the socket (never over HTTP: it can wait). */
export interface Typing {
  /** The customer typed: told at most every few seconds, and "stopped" after a pause. */
  typed(): void;
  /** The customer stopped (sent the message, or paused). */
  stop(): void;
}

export function createTyping(store: Store, connection: Connection): Typing {
  let sentAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function stop(): void {
    clearTimeout(timer);
    const socket = connection.socket();
    const id = store.state.conversationId;
    if (sentAt && socket?.connected && id) socket.emit('typing:set', { conversation_id: id, typing: false });
    sentAt = 0;
  }

  return {
    typed() {
      const socket = connection.socket();
      const id = store.state.conversationId;
      if (!socket?.connected || !id) return;
      const now = Date.now();
      if (now - sentAt > TYPING_EVERY_MS) {
        sentAt = now;
        socket.emit('typing:set', { conversation_id: id, typing: true });
      }
      clearTimeout(timer);
      timer = setTimeout(stop, TYPING_IDLE_MS);
    },
    stop,
  };
}
