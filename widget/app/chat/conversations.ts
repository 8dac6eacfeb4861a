import type { MessagesPage, WidgetConversation } from '../../../shared/index.ts';
import type { Api } from '../api.ts';
import type { SiteStorage } from '../storage.ts';
import type { History } from './history.ts';
import { pendingIn } from './outbox.ts';
import type { Sessions } from './session.ts';
import { withConversation, type Store } from './state.ts';
import type { Unread } from './unread.ts';

/** The customer's conversations: the list, the one shown, and what changes them. */
export interface Conversations {
  /** Shows a conversation with its messages (those still in the outbox first, then its history). */
  show(conversation: WidgetConversation, firstPage?: MessagesPage): Promise<void>;
  /** Shows a conversation of the list, read. */
  open(id: string): Promise<void>;
  /** A conversation the customer just started otherwise (the interview offer, issue 29): listed and shown. */
  enter(conversation: WidgetConversation): Promise<void>;
  /** Starts a conversation in the widget's language and shows it. */
  start(contact?: { name?: string; email?: string }): Promise<void>;
  /** Reads the list again (with its unread counts). */
  refresh(): Promise<void>;
  /** A conversation started elsewhere (another tab): listed, and shown when this tab has none open. */
  adopt(id: string): Promise<void>;
  /** A change pushed for a conversation (handed over or back, closed, reopened). */
  patch(id: string, patch: Partial<WidgetConversation>): void;
  /** The customer ends the open conversation. */
  end(): Promise<void>;
  /** The customer's rating of the open conversation. */
  answerSurvey(rating: number, comment: string): Promise<void>;
}

export function createConversations(
  store: Store,
  storage: SiteStorage,
  sessions: Sessions,
  api: Api,
  history: History,
  unread: Unread,
  locale: () => string,
): Conversations {
  async function show(conversation: WidgetConversation, firstPage?: MessagesPage): Promise<void> {
    history.restart();
    storage.set('conversation', conversation.id);
    store.set({
      conversationId: conversation.id,
      messages: pendingIn(storage, conversation.id),
      handledBy: conversation.handled_by,
      resolved: conversation.status === 'resolved',
      surveyAnswered: conversation.survey !== null,
      view: 'chat',
      typing: false,
      draft: '',
    });
    await history.catchUp(firstPage);
  }

  async function refresh(): Promise<void> {
    const session = sessions.current();
    if (!session) return;
    const { conversations } = await api.conversations(session.token);
    store.set({ conversations });
    unread.count();
  }

  async function enter(conversation: WidgetConversation): Promise<void> {
    const others = store.state.conversations.filter((known) => known.id !== conversation.id);
    store.set({ conversations: [conversation, ...others] });
    await show(conversation);
  }

  return {
    show,
    enter,
    async open(id) {
      const conversation = store.state.conversations.find((candidate) => candidate.id === id);
      if (!conversation) return;
      await show(conversation);
      await unread.markRead();
    },
    async start(contact = {}) {
      const session = await sessions.ensure();
      await enter(await api.openConversation(session.token, { ...contact, locale: locale() }));
    },
    refresh,
    async adopt(id) {
      await refresh();
      const conversation = store.state.conversations.find((candidate) => candidate.id === id);
      if (conversation && !store.state.conversationId) await show(conversation);
    },
    patch(id, patch) {
      store.set({ conversations: withConversation(store.state.conversations, id, () => patch) });
      if (id !== store.state.conversationId) return;
      if (patch.handled_by) store.set({ handledBy: patch.handled_by });
      if (patch.status) store.set({ resolved: patch.status === 'resolved', typing: false });
    },
    async end() {
      const session = sessions.current();
      const id = store.state.conversationId;
      if (!session || !id) return;
      const conversation = await api.close(session.token, id);
      store.set({ resolved: true, conversations: withConversation(store.state.conversations, id, () => conversation) });
    },
    async answerSurvey(rating, comment) {
      const session = sessions.current();
      const id = store.state.conversationId;
      if (!session || !id) return;
      await api.survey(session.token, id, rating, comment);
      store.set({ surveyAnswered: true });
    },
  };
}
