import type { WidgetConversation, WidgetMessage } from '../../../shared/index.ts';
import type { ParleyEvents } from '../../api.ts';
import type { Tabs } from '../tabs.ts';
import type { Conversations } from './conversations.ts';
import type { History } from './history.ts';
import { withConversation, type Store } from './state.ts';
import type { Unread } from './unread.ts';

/**
 * Takes a message the BFF stored (pushed, or the answer to this tab's own send): shown if it belongs
 * to the open conversation, counted as unread when unseen, told to the page, chimed, and told to the
 * other tabs.
 */
export function createReceive(
  store: Store,
  history: History,
  conversations: Conversations,
  unread: Unread,
  tabs: Tabs,
  emit: (event: 'message', payload: ParleyEvents['message']) => void,
): (message: WidgetMessage) => void {
  return (message) => {
    const { state } = store;
    const id = message.conversation_id;
    if (!state.conversationId || !state.conversations.some((conversation) => conversation.id === id)) {
      void conversations.adopt(id);
    }
    if (id === state.conversationId) {
      // Cleared in place, to be drawn with the message's own update: the reply shows once, never
      // the draft and the message together, nor neither.
      if (message.author !== 'customer') state.draft = '';
      history.add([message]);
    }
    const author = message.author;
    const seen =
      author === 'customer' ||
      (state.open && id === state.conversationId && state.view === 'chat' && document.visibilityState === 'visible');
    // The list's preview follows every message but notices at once, so it is right before the list is fetched again.
    // A newer one may be there already (an answer pushed before the answer to this tab's own send).
    const preview = (conversation: WidgetConversation) =>
      author === 'system' || (conversation.last_message?.id ?? 0) > message.id ? {} : { last_message: message };
    store.set({
      conversations: withConversation(store.state.conversations, id, (conversation) => ({
        unread: conversation.unread + (seen ? 0 : 1),
        ...preview(conversation),
      })),
    });
    if (author === 'customer') return;
    if (seen) void unread.markRead();
    else unread.count();
    if (author !== 'system') {
      emit('message', { conversation_id: id, author, text: message.text });
      // The chime loads only for customers who turned the sound on.
      if (store.state.sound && !seen) void import('../chime.ts').then((module) => module.chimeOnce(`${message.id}`));
    }
    tabs.post({ type: 'message', conversationId: id });
  };
}
