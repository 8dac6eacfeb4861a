import { ClientError } from '../../../shared/client-error.ts';
import type { WidgetMessage } from '../../../shared/index.ts';
import type { Api } from '../api.ts';
import type { SiteStorage } from '../storage.ts';
import type { History } from './history.ts';
import { pendingMessage, type ShownMessage } from './messages.ts';
import type { Sessions } from './session.ts';
import type { Connection } from './socket.ts';
import type { Store } from './state.ts';

/** A message written but not yet stored by the BFF, kept on the device so a reload or an outage loses nothing. */
export interface OutboxItem {
  conversationId: string;
  messageId: string;
  text: string;
  createdAt: string;
  /** Answers of the server's own failure (5xx) so far; at SERVER_TRIES the message shows failed, kept for Retry. */
  tries?: number;
}

// A send the server itself fails (500) this many times shows "Not sent" with Retry;
// network trouble, 429 and 502-504 wait on.
const SERVER_TRIES = 3;

/**
 * What follows a send that failed. `undefined`: refused for good (a 4xx other than 429; the same
 * send would fail again), so it leaves the outbox. Otherwise its count of the server's own failures,
 * and when to try again: after 1 s, then 2 s, for the server's failure (so "Not sent" shows within
 * seconds); after 5 s for network trouble, a 429, or a gateway's 502-504 (a restart, a deploy), which
 * count no try. No wait once the server failed SERVER_TRIES times: it waits for the customer's Retry.
 */
export function nextTry(error: unknown, tries: number): { tries: number; waitMs?: number } | undefined {
  const status = error instanceof ClientError ? error.status : 0;
  if (status >= 400 && status < 500 && status !== 429) return undefined;
  const counted = tries + (status >= 500 && (status < 502 || status > 504) ? 1 : 0);
  if (counted >= SERVER_TRIES) return { tries: counted };
  return { tries: counted, waitMs: counted > tries ? counted * 1_000 : 5_000 };
}

const read = (storage: SiteStorage) => storage.getJson<OutboxItem[]>('outbox', []);

function save(storage: SiteStorage, items: OutboxItem[]): void {
  if (items.length) storage.setJson('outbox', items);
  else storage.remove('outbox');
}

const shown = (item: OutboxItem) => pendingMessage(item, (item.tries ?? 0) >= SERVER_TRIES);

/** The conversation's messages still in the outbox, as they are shown until stored. */
export function pendingIn(storage: SiteStorage, conversationId: string): ShownMessage[] {
  return read(storage)
    .filter((item) => item.conversationId === conversationId)
    .map(shown);
}

export interface Outbox {
  /** Keeps a message the customer wrote, and gives it back as it is shown until stored. */
  add(conversationId: string, text: string): ShownMessage;
  /** Puts a message the server failed back in line with its tries forgotten; false when it is not in the outbox. */
  again(messageId: string): boolean;
  /** Sends what waits, in order, each with its own message_id (so a repeat is harmless). */
  flush(): Promise<void>;
}

export function createOutbox(
  store: Store,
  storage: SiteStorage,
  sessions: Sessions,
  api: Api,
  connection: Connection,
  history: History,
  /** A message the BFF stored, taken as its push would be (this socket gets none of its own message). */
  receive: (message: WidgetMessage) => void,
): Outbox {
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function flush(): Promise<void> {
    clearTimeout(timer);
    const session = sessions.current();
    if (!session || store.state.phase !== 'ready') return;
    for (const item of read(storage)) {
      // Failed by the server SERVER_TRIES times: it waits for the customer's Retry.
      if ((item.tries ?? 0) >= SERVER_TRIES) continue;
      const others = () => read(storage).filter((waiting) => waiting.messageId !== item.messageId);
      try {
        const socket = connection.socket();
        const socketId = socket?.connected ? socket.id : undefined;
        receive(await api.send(session.token, item.conversationId, item.text, item.messageId, socketId));
        save(storage, others());
      } catch (error) {
        const next = nextTry(error, item.tries ?? 0);
        // Refused for good, it leaves the outbox; otherwise it keeps its count of the server's failures.
        if (!next) save(storage, others());
        else {
          const tried = (waiting: OutboxItem) =>
            waiting.messageId === item.messageId ? { ...waiting, tries: next.tries } : waiting;
          save(storage, read(storage).map(tried));
        }
        if (next?.waitMs === undefined) {
          history.mark(item.messageId, 'failed');
          continue;
        }
        // Offline, the BFF busy, or failing: tried again after the wait, and at once when the browser is back online.
        timer = setTimeout(() => void flush(), next.waitMs);
        return;
      }
    }
  }

  return {
    add(conversationId, text) {
      const createdAt = new Date().toISOString();
      const item: OutboxItem = { conversationId, messageId: crypto.randomUUID(), text, createdAt };
      save(storage, [...read(storage), item]);
      return shown(item);
    },
    again(messageId) {
      const items = read(storage);
      if (!items.some((item) => item.messageId === messageId)) return false;
      save(
        storage,
        items.map((item) => (item.messageId === messageId ? { ...item, tries: 0 } : item)),
      );
      return true;
    },
    flush,
  };
}
