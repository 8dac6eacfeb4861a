import type { ReplyChoice, WidgetMessage } from '../../../shared/index.ts';
import type { Conversations } from './conversations.ts';
import type { History } from './history.ts';
import type { Outbox } from './outbox.ts';
import type { Sessions } from './session.ts';
import type { Store } from './state.ts';
import type { Typing } from './typing.ts';

/** What the customer writes: messages, quick replies, files, and that they are typing. */
export interface Writing {
  /** Shows the message at once as "sending", keeps it in the outbox, and sends it when it can. */
  send(text: string): Promise<void>;
  /**
   * Sends a failed message again: one the server failed keeps its id (it may have been stored, and
   * the id makes that harmless); one refused for good goes again as a new message.
   */
  retry(key: string): Promise<void>;
  choose(choice: ReplyChoice): Promise<void>;
  /**
   * For the attachments chunk: the session's token, the BFF's address and the conversation, opened
   * first when `open` and there is none to write to.
   */
  target(open?: boolean): Promise<[token: string, baseUrl: string, conversationId: string | undefined]>;
  /** A message the attachments chunk sent (the socket brings it too; it is shown once); the customer stopped typing. */
  took(message: WidgetMessage): void;
  /** The customer is typing: tell the people answering, at most every few seconds. */
  typing(): void;
}

export function createWriting(
  store: Store,
  sessions: Sessions,
  conversations: Conversations,
  history: History,
  outbox: Outbox,
  typing: Typing,
  baseUrl: string,
): Writing {
  /** The conversation to write to: the open one, or a new one when there is none or it ended. */
  const conversationId = async () => {
    if (!store.state.conversationId || store.state.resolved) await conversations.start();
    return store.state.conversationId;
  };

  async function send(text: string): Promise<void> {
    const trimmed = text.trim();
    if (!trimmed) return;
    const shown = outbox.add((await conversationId())!, trimmed);
    store.set({ messages: [...store.state.messages, shown] });
    typing.stop();
    await outbox.flush();
  }

  return {
    send,
    async retry(key) {
      const failed = store.state.messages.find((message) => message.key === key && message.status === 'failed');
      if (!failed) return;
      if (outbox.again(key)) {
        history.mark(key, 'sending');
        return outbox.flush();
      }
      store.set({ messages: store.state.messages.filter((message) => message !== failed) });
      await send(failed.text);
    },
    choose: (choice) => send(choice.value),
    async target(open) {
      if (open) await conversationId();
      return [(await sessions.ensure()).token, baseUrl, store.state.conversationId];
    },
    took(message) {
      typing.stop();
      history.add([message]);
    },
    typing: typing.typed,
  };
}
