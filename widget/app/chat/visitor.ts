import type { ParleyEvents } from '../../api.ts';
import type { Api } from '../api.ts';
import type { SiteStorage } from '../storage.ts';
import type { Tabs } from '../tabs.ts';
import type { History } from './history.ts';
import type { Sessions } from './session.ts';
import type { Connection } from './socket.ts';
import type { Start } from './start.ts';
import type { Store } from './state.ts';
import type { Unread } from './unread.ts';

/** Who the chat is for on this device: the visitor, a verified customer, or no one after a shutdown. */
export interface Visitor {
  /** Switches to a verified customer's session. The visitor's conversations stay with the visitor. */
  identify(token: string): Promise<void>;
  /** Forgets the visitor on this device: ends the session on the server and clears what is stored. */
  shutdown(): Promise<void>;
  /** Forgets the chat in this tab (not what is stored): the socket, the session in use, what is shown. */
  reset(): void;
}

export function createVisitor(
  store: Store,
  storage: SiteStorage,
  sessions: Sessions,
  api: Api,
  connection: Connection,
  history: History,
  unread: Unread,
  start: Start,
  tabs: Tabs,
  emit: (event: 'error', payload: ParleyEvents['error']) => void,
): Visitor {
  function reset(): void {
    connection.close();
    sessions.forget();
    start.forget();
    history.restart();
    store.set({
      phase: 'idle',
      conversations: [],
      conversationId: undefined,
      messages: [],
      unread: 0,
      resolved: false,
      surveyAnswered: false,
      view: 'chat',
      handledBy: 'ai',
    });
    unread.tell();
  }

  /** Forgets this device's visitor; `token`, when given, is the verified customer the chat is for from now on. */
  function forget(token: string | undefined): void {
    reset();
    storage.clear();
    sessions.verify(token);
  }

  return {
    async identify(token) {
      if (typeof token !== 'string' || !token.startsWith('wst_')) {
        emit('error', { code: 'invalid_request', message: 'identify takes {token: "wst_…"} from your server.' });
        return;
      }
      forget(token);
      if (store.state.open) await start.start();
    },
    async shutdown() {
      const session = sessions.current();
      forget(undefined);
      tabs.post({ type: 'session' });
      if (session) await api.endSession(session.token).catch(() => undefined);
    },
    reset,
  };
}
