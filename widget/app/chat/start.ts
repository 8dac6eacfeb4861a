import { ClientError } from '../../../shared/client-error.ts';
import type { ParleyEvents } from '../../api.ts';
import type { Api } from '../api.ts';
import type { SiteStorage } from '../storage.ts';
import type { Conversations } from './conversations.ts';
import type { Outbox } from './outbox.ts';
import type { Sessions } from './session.ts';
import type { Store } from './state.ts';
import type { Unread } from './unread.ts';

/** Starting the chat: a session, the config, the list and the stored conversation with its history, then live. */
export interface Start {
  /** Starts once; a start that failed (or was forgotten) is made again by the next call. */
  start(): Promise<void>;
  /** Forgets the start made, so the next call starts again (the visitor was forgotten). */
  forget(): void;
  /** The config again when the widget's language changed since it came. */
  localize(): Promise<void>;
}

export function createStart(
  store: Store,
  storage: SiteStorage,
  sessions: Sessions,
  api: Api,
  conversations: Conversations,
  unread: Unread,
  outbox: Outbox,
  /** Opens the socket and takes what it pushes. */
  connect: (token: string) => void,
  emit: (event: 'error', payload: ParleyEvents['error']) => void,
  locale: () => string,
): Start {
  let starting: Promise<void> | undefined;
  let configLocale = '';

  async function begin(retried = false): Promise<void> {
    store.set({ phase: 'connecting', error: undefined });
    try {
      const session = await sessions.ensure();
      // The config, the list and the stored conversation's history in one request (issue 34).
      // Read again: another tab may have started one since this tab loaded.
      const storedId = store.state.conversationId ?? storage.get('conversation');
      const { config, conversations: list, history } = await api.start(session.token, storedId);
      // It comes in the inbox's language; localize() asks again when the widget shows another.
      configLocale = config.inbox.locale;
      store.set({ config, conversations: list });
      const stored = storedId && list.find((conversation) => conversation.id === storedId);
      if (stored) await conversations.show(stored, history ?? undefined);
      // Unless a message pushed meanwhile brought one another tab started (adopt).
      else if (store.state.conversationId === storedId) {
        const prechat = config.features.prechat_form && list.length === 0;
        store.set({ conversationId: undefined, messages: [], view: prechat ? 'prechat' : 'chat' });
      }
      connect(session.token);
      store.set({ phase: 'ready' });
      unread.count();
      void outbox.flush();
    } catch (error) {
      // A stored session that was revoked (or signed with a retired key) is dropped and made anew once.
      if (retried || !(error instanceof ClientError && error.status === 401) || !storage.get('session')) throw error;
      storage.remove('session');
      sessions.forget();
      await begin(true);
    }
  }

  function failed(error: unknown): void {
    starting = undefined;
    // A refused page cannot read the answer (no CORS for it), so a network failure is said plainly.
    // A limit is said in the customer's words with the wait (issue 16); opening the chat again tries again.
    const refusal = error instanceof ClientError ? error : undefined;
    const limited = refusal?.code === 'rate_limited';
    store.set({
      phase: 'error',
      error: limited ? 'rate_limited' : (refusal?.message ?? 'connect'),
      retryAt: limited ? Date.now() + (refusal.retryAfterS ?? 60) * 1_000 : undefined,
      refused: refusal?.details,
    });
    const message = error instanceof Error ? error.message : String(error);
    emit('error', { code: refusal?.code ?? 'unreachable', message });
  }

  return {
    start: () => (starting ??= begin().catch(failed)),
    forget: () => void (starting = undefined),
    async localize() {
      const session = sessions.current();
      if (!session || configLocale === locale()) return;
      store.set({ config: await api.config(session.token, (configLocale = locale())) });
    },
  };
}
