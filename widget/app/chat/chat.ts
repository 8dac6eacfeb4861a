// First, so the socket client comes before the chat's own modules in app.js and they stay together:
// apart, gzip's 32 KB window lost the strings they share (about 0.3 KB more).
import { createConnection, type WidgetSocket } from './socket.ts';
import type { ParleyEvent, ParleyEvents } from '../../api.ts';
import type { WidgetConversation } from '../../../shared/index.ts';
import type { Api } from '../api.ts';
import type { SiteStorage } from '../storage.ts';
import { connectTabs } from '../tabs.ts';
import { createConversations } from './conversations.ts';
import { createHistory } from './history.ts';
import { createLiveUpdates } from './live-updates.ts';
import { fromOtherTabs } from './other-tabs.ts';
import { createOutbox } from './outbox.ts';
import { createReceive } from './receive.ts';
import { createSessions } from './session.ts';
import { createStart } from './start.ts';
import { createStore, type ChatState } from './state.ts';
import { createTyping } from './typing.ts';
import { createUnread } from './unread.ts';
import { createVisitor, type Visitor } from './visitor.ts';
import { createWriting, type Writing } from './writing.ts';

export interface ChatOptions {
  api: Api;
  storage: SiteStorage;
  baseUrl: string;
  siteKey: string | undefined;
  sessionToken?: string | undefined;
  /** The language the widget shows, asked for when the chat needs it (the AI's own words use it). */
  locale: () => string;
  emit<E extends ParleyEvent>(event: E, payload: ParleyEvents[E]): void;
}

/** What the components read and call. Only the chat's parts touch the network and storage. */
export interface Chat extends Pick<Visitor, 'identify' | 'shutdown'>, Writing {
  readonly state: ChatState;
  subscribe(listener: () => void): () => void;
  setOpen(open: boolean, fromTab?: boolean): void;
  /** The config again when the widget's language changed since it came: the home screen's greeting (issue 16). */
  localize(): Promise<void>;
  /**
   * A route of the BFF under `v1/widget/` with this session, for the parts that load on demand:
   * the home screen's article search, the e-mail ask and the transcript.
   */
  call<T>(path: string, method?: string, body?: unknown): Promise<T>;
  /** Gets a session, the conversation and its history, and connects; safe to call more than once. */
  start(): Promise<void>;
  /** With a session on this device already: connect quietly, so the launcher can count unread messages. */
  warmUp(): Promise<void>;
  openConversation(id: string): Promise<void>;
  /** Lists and shows a conversation a chunk has just started (the interview offer, issue 29). */
  enterConversation(conversation: WidgetConversation): Promise<void>;
  newConversation(contact?: { name?: string; email?: string }): Promise<void>;
  showList(): void;
  backToChat(): void;
  endConversation(): Promise<void>;
  answerSurvey(rating: number, comment: string): Promise<void>;
  setSound(on: boolean): void;
  /** The chat's socket, for the call chunk (issue 30): calls are signalled over it. */
  socket(): WidgetSocket | undefined;
}

/**
 * The chat: its state, and its parts built in the order they need each other, each in a file
 * named after its concern; then the other tabs and the browser's online state wired to them.
 * Parts are passed by position: each has a type of its own, so the compiler catches a slip, and
 * named in objects they cost the widget about 0.3 KB gzip.
 */
export function createChat(options: ChatOptions): Chat {
  const { api, storage, emit, locale } = options;
  const store = createStore(storage);
  const tabs = connectTabs(options.siteKey ?? 'none');
  const sessions = createSessions(api, storage, options.siteKey, options.sessionToken);
  const connection = createConnection(options.baseUrl, sessions);
  const history = createHistory(store, sessions, api);
  const unread = createUnread(store, sessions, api, connection, history, tabs, emit);
  const conversations = createConversations(store, storage, sessions, api, history, unread, locale);
  const receive = createReceive(store, history, conversations, unread, tabs, emit);
  const outbox = createOutbox(store, storage, sessions, api, connection, history, receive);
  const typing = createTyping(store, connection);
  const setOnline = (online: boolean) => {
    if (online === store.state.online) return;
    store.set({ online });
    if (online) void outbox.flush();
  };
  const readConfig = async () => api.config((await sessions.ensure()).token, locale());
  const connect = createLiveUpdates(store, connection, history, conversations, outbox, receive, setOnline, readConfig);
  const start = createStart(store, storage, sessions, api, conversations, unread, outbox, connect, emit, locale);
  const visitor = createVisitor(store, storage, sessions, api, connection, history, unread, start, tabs, emit);

  const chat: Chat = {
    get state() {
      return store.state;
    },
    subscribe: store.subscribe,
    setOpen(open, fromTab = false) {
      if (open === store.state.open) return;
      store.set({ open });
      if (!fromTab) tabs.post({ type: 'open', open });
      emit(open ? 'open' : 'close', undefined);
      if (open) void start.start().then(unread.markRead);
    },
    localize: start.localize,
    call: async (path, method = 'GET', body) =>
      api.call(method, `v1/widget/${path}`, (await sessions.ensure()).token, body),
    start: start.start,
    async warmUp() {
      if (sessions.known()) await start.start();
    },
    identify: visitor.identify,
    shutdown: visitor.shutdown,
    openConversation: conversations.open,
    enterConversation: conversations.enter,
    newConversation: conversations.start,
    showList() {
      store.set({ view: 'list' });
      void conversations.refresh();
    },
    backToChat: () => store.set({ view: 'chat' }),
    socket: connection.socket,
    endConversation: conversations.end,
    answerSurvey: conversations.answerSurvey,
    ...createWriting(store, sessions, conversations, history, outbox, typing, options.baseUrl),
    setSound(on) {
      storage.set('sound', on ? 'on' : 'off');
      store.set({ sound: on });
    },
  };
  tabs.listen(fromOtherTabs(store, connection, history, conversations, unread, chat.setOpen, visitor.reset));
  addEventListener('online', () => setOnline(true));
  addEventListener('offline', () => setOnline(false));
  return chat;
}
