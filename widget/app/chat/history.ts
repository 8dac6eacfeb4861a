import type { MessagesPage, MessageStatus, MessageUpdate, WidgetMessage } from '../../../shared/index.ts';
import type { Api } from '../api.ts';
import { mergeStored, type ShownMessage } from './messages.ts';
import type { Sessions } from './session.ts';
import type { Store } from './state.ts';

// The BFF's page size for history; a full page means there may be more.
const HISTORY_PAGE_SIZE = 100;

/** The open conversation's messages: what is shown, the cursor after the last one, and reading on from it. */
export interface History {
  /** The id of the last stored message shown (0: none yet): where the next catch-up reads on. */
  lastId(): number;
  /** Starts the cursor over, for another conversation or none. */
  restart(): void;
  /** Shows stored messages once each; `live` when pushed (an answer then ends the typing indicator). */
  add(batch: readonly WidgetMessage[], live?: boolean): void;
  /** A stored message's new status, pushed (it can come before the answer to this tab's own send). */
  update(update: MessageUpdate): void;
  /** Sets the status of the customer's message in flight. */
  mark(key: string, status: ShownMessage['status']): void;
  /** Reads what is new by cursor; `firstPage`, when given, is the first page already fetched (from the start). */
  catchUp(firstPage?: MessagesPage): Promise<void>;
}

export function createHistory(store: Store, sessions: Sessions, api: Api): History {
  let lastId = 0;
  /** Statuses pushed for messages not shown yet (a push can overtake the answer to this tab's own send). */
  const statuses = new Map<number, MessageStatus>();
  const setMessages = (change: (message: ShownMessage) => ShownMessage) =>
    store.set({ messages: store.state.messages.map(change) });

  function add(batch: readonly WidgetMessage[], live = true): void {
    const { state } = store;
    const stored = batch.filter((message) => message.conversation_id === state.conversationId);
    for (const message of stored) lastId = Math.max(lastId, message.id);
    // One state update for a whole page of history, so a long history renders (and scrolls) once.
    const { messages, answered } = mergeStored(state.messages, stored, statuses);
    if (messages !== state.messages) store.set({ messages, ...(live && answered ? { typing: false } : {}) });
  }

  return {
    lastId: () => lastId,
    restart: () => void (lastId = 0),
    add,
    update(update) {
      if (update.conversation_id !== store.state.conversationId) return;
      statuses.set(update.id, update.status);
      setMessages((message) => (message.id === update.id ? { ...message, status: update.status } : message));
    },
    mark(key, status) {
      setMessages((message) => (message.key === key ? { ...message, status } : message));
    },
    async catchUp(firstPage) {
      const session = sessions.current() ?? (await sessions.ensure());
      const id = store.state.conversationId;
      if (!id) return;
      let page;
      do {
        page = firstPage ?? (await api.messages(session.token, id, lastId));
        firstPage = undefined;
        if (store.state.conversationId !== id) return;
        add(page.messages, false);
      } while (page.messages.length === HISTORY_PAGE_SIZE);
    },
  };
}
