import type { WidgetConversation } from '../../../shared/index.ts';
import type { ParleyEvents } from '../../api.ts';
import type { Api } from '../api.ts';
import type { Tabs } from '../tabs.ts';
import type { History } from './history.ts';
import type { Sessions } from './session.ts';
import type { Connection } from './socket.ts';
import { withConversation, type Store } from './state.ts';

/** The messages the customer has not seen, over all their conversations (the launcher's badge). */
export function unreadIn(conversations: readonly WidgetConversation[]): number {
  return conversations.reduce((sum, conversation) => sum + conversation.unread, 0);
}

/** The count of unseen messages, and marking the open conversation read (here, in the other tabs, at the BFF). */
export interface Unread {
  /** Counts again from the list; a new count goes to the page and the other tabs. */
  count(): void;
  /** Tells the page the count there is. */
  tell(): void;
  /** The customer sees the open conversation: it is read up to its last message. */
  markRead(): Promise<void>;
  /** Another tab read a conversation. */
  readElsewhere(conversationId: string): void;
  /** Another tab's count: taken by a tab without a connection (one with counts itself; two counts would fight). */
  countedElsewhere(count: number): void;
}

export function createUnread(
  store: Store,
  sessions: Sessions,
  api: Api,
  connection: Connection,
  history: History,
  tabs: Tabs,
  emit: (event: 'unread', payload: ParleyEvents['unread']) => void,
): Unread {
  const tell = () => emit('unread', { count: store.state.unread });
  const read = (id: string) => {
    store.set({ conversations: withConversation(store.state.conversations, id, () => ({ unread: 0 })) });
    count();
  };

  function count(): void {
    const unread = unreadIn(store.state.conversations);
    if (unread === store.state.unread) return;
    store.set({ unread });
    tabs.post({ type: 'unread', count: unread });
    tell();
  }

  return {
    count,
    tell,
    async markRead() {
      const id = store.state.conversationId;
      const session = sessions.current();
      const lastId = history.lastId();
      if (!session || !id || !store.state.open || lastId === 0) return;
      read(id);
      tabs.post({ type: 'read', conversationId: id });
      const socket = connection.socket();
      if (socket?.connected) socket.emit('read:mark', { conversation_id: id, last_read_id: lastId });
      else await api.read(session.token, id, lastId).catch(() => undefined);
    },
    readElsewhere: read,
    countedElsewhere(unread) {
      if (connection.socket()?.connected || unread === store.state.unread) return;
      store.set({ unread });
      tell();
    },
  };
}
