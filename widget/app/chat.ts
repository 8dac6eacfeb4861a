import { io, type Socket } from 'socket.io-client';
// The widget takes values only from zod-free modules of shared/, and types from anywhere.
import { WIDGET_NAMESPACE, type WidgetClientEvents, type WidgetServerEvents } from '../../shared/socket-events.ts';
import type { MessagesPage, MessageStatus, ReplyCard, ReplyChoice, WidgetAttachment, WidgetConfig, WidgetConversation, WidgetMessage, WidgetSession } from '../../shared/index.ts';
import type { ParleyEvent, ParleyEvents } from '../api.ts';
import { ApiError, isFinal, type Api } from './api.ts';
import type { SiteStorage } from './storage.ts';
import { connectTabs, type TabMessage, type Tabs } from './tabs.ts';

/** A message as the widget shows it: a stored one, or the customer's own still on its way. */
export interface ShownMessage {
  key: string;
  author: WidgetMessage['author'];
  authorName: string | null;
  text: string;
  createdAt: string;
  status: 'sending' | 'sent' | 'delivered' | 'read' | 'failed';
  id?: number;
  messageId?: string | null;
  choices: ReplyChoice[] | null;
  card: ReplyCard | null;
  /** Photos and PDFs sent with it. */
  attachments?: WidgetAttachment[] | undefined;
  /** A notice of a move, said in the widget's language (`text` is the English). */
  notice?: WidgetMessage['notice'];
}

export type View = 'chat' | 'list' | 'prechat';

export interface ChatState {
  phase: 'idle' | 'connecting' | 'ready' | 'error';
  /** What went wrong: 'rate_limited', 'connect' (no answer at all), or the BFF's own words. */
  error?: string | undefined;
  /** When a refused start may be tried again (ms since 1970), from the answer's Retry-After. */
  retryAt?: number | undefined;
  open: boolean;
  view: View;
  online: boolean;
  config?: WidgetConfig | undefined;
  conversations: WidgetConversation[];
  conversationId?: string | undefined;
  messages: ShownMessage[];
  handledBy: 'ai' | 'human';
  resolved: boolean;
  surveyAnswered: boolean;
  typing: boolean;
  /** The AI's reply as it is being written (pieces streamed from an LLM); empty once it arrives whole. */
  draft: string;
  unread: number;
  sound: boolean;
}

/** A message written but not yet stored by the BFF, kept on the device so a reload or an outage loses nothing. */
interface OutboxItem {
  conversationId: string;
  messageId: string;
  text: string;
  createdAt: string;
  /** Answers of the server's own failure (5xx) so far; at SERVER_TRIES the message shows failed, kept for Retry. */
  tries?: number;
}

// A send the server itself fails (500) this many times shows "Not sent" with Retry; network trouble, 429 and 502-504 wait on.
const SERVER_TRIES = 3;
// A tab that made a session keeps the lock this long after, until other tabs can read what it stored.
const SESSION_SETTLE_MS = 1_000;
// Renew the session this long before it expires.
const RENEW_MARGIN_MS = 5 * 60_000;
// The BFF's page size for history; a full page means there may be more.
const HISTORY_PAGE_SIZE = 100;
// How often to read new messages while the socket cannot connect.
const POLL_MS = 5_000;
// While the customer types: tell the people answering at most this often, and "stopped" after this long.
const TYPING_EVERY_MS = 3_000;
const TYPING_IDLE_MS = 5_000;

export interface ChatOptions {
  api: Api;
  storage: SiteStorage;
  baseUrl: string;
  siteKey: string | undefined;
  sessionToken?: string | undefined;
  emit<E extends ParleyEvent>(event: E, payload: ParleyEvents[E]): void;
}

/**
 * The chat's state and everything that talks to the BFF: session, conversations, history, the
 * socket, the outbox and the other tabs. Components read `state` and call methods; only this file
 * touches the network and storage.
 */
export class Chat {
  /** The language the widget shows (the AI's own words use it). */
  locale = 'en';
  state: ChatState;
  readonly #listeners = new Set<() => void>();
  readonly #options: ChatOptions;
  #session: WidgetSession | undefined;
  #socket: Socket<WidgetServerEvents, WidgetClientEvents> | undefined;
  #lastId = 0;
  /** Statuses pushed for messages not shown yet (a push can overtake the answer to this tab's own send). */
  #statuses = new Map<number, MessageStatus>();
  #starting: Promise<void> | undefined;
  #tabs: Tabs;
  #typingSentAt = 0;
  #typingTimer: ReturnType<typeof setTimeout> | undefined;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #onlineHandler = () => this.#setOnline(true);
  #offlineHandler = () => this.#setOnline(false);

  constructor(options: ChatOptions) {
    this.#options = options;
    const storage = options.storage;
    this.state = {
      phase: 'idle',
      open: false,
      view: 'chat',
      online: typeof navigator === 'undefined' || navigator.onLine !== false,
      conversations: [],
      conversationId: storage.get('conversation'),
      messages: [],
      handledBy: 'ai',
      resolved: false,
      surveyAnswered: false,
      typing: false,
      draft: '',
      unread: 0,
      sound: storage.get('sound') === 'on',
    };
    this.#tabs = connectTabs(options.siteKey ?? 'none', (message) => this.#fromTab(message));
    addEventListener('online', this.#onlineHandler);
    addEventListener('offline', this.#offlineHandler);
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  // --- opening and closing -------------------------------------------------------------------

  setOpen(open: boolean, fromTab = false): void {
    if (open === this.state.open) return;
    this.#set({ open });
    if (!fromTab) this.#tabs.post({ type: 'open', open });
    this.#options.emit(open ? 'open' : 'close', undefined);
    if (open) {
      void this.start().then(() => this.#markRead());
    }
  }

  #configLocale = '';
  /** The config again when the widget's language changed since it came, for its greeting (the home screen asks, issue 16). */
  async localize(): Promise<void> {
    if (this.#session && this.#configLocale !== this.locale) this.#set({ config: await this.#options.api.config(this.#session.token, (this.#configLocale = this.locale)) });
  }

  /** A help route of the BFF with this session: the home screen's article search. */
  async help<T>(path: string): Promise<T> {
    return this.#options.api.get<T>((await this.#ensureSession()).token, `v1/widget/help/${path}`);
  }

  /** Gets a session, the conversation and its history, and connects; safe to call more than once. */
  start(): Promise<void> {
    return (this.#starting ??= this.#start().catch((error: unknown) => {
      this.#starting = undefined;
      // A refused page cannot read the answer (no CORS for it), so a network failure is said plainly.
      // A limit is said in the customer's words with the wait (issue 16); opening the chat again tries again.
      const limited = error instanceof ApiError && error.code === 'rate_limited';
      const message = limited ? 'rate_limited' : error instanceof ApiError ? error.message : 'connect';
      this.#set({ phase: 'error', error: message, retryAt: limited ? Date.now() + (error.retryAfterS ?? 60) * 1_000 : undefined });
      this.#options.emit('error', { code: error instanceof ApiError ? error.code : 'unreachable', message: error instanceof Error ? error.message : String(error) });
    }));
  }

  /** When the customer already has a session on this device: connect quietly, so the launcher can count unread messages. */
  async warmUp(): Promise<void> {
    if (this.#options.sessionToken || this.#options.storage.get('session')) await this.start();
  }

  async #start(retried = false): Promise<void> {
    this.#set({ phase: 'connecting', error: undefined });
    try {
      const session = await this.#ensureSession();
      // The stored conversation's history is asked for alongside the config and the list, not after them.
      // Read again: another tab may have started one since this tab loaded.
      const storedId = this.state.conversationId ?? this.#options.storage.get('conversation');
      const history = storedId ? this.#options.api.messages(session.token, storedId, 0).catch(() => undefined) : undefined;
      // The config is kept as it comes: when the list is refused, the shop's name and email still show.
      const [config, list] = await Promise.all([this.#options.api.config(session.token, (this.#configLocale = this.locale)).then((config) => (this.#set({ config }), config)), this.#options.api.conversations(session.token)]);
      this.#set({ conversations: list.conversations });
      const stored = storedId && list.conversations.find((conversation) => conversation.id === storedId);
      if (stored) await this.#show(stored, await history);
      // Unless a message pushed meanwhile brought one another tab started (#adopt).
      else if (this.state.conversationId === storedId) this.#set({ conversationId: undefined, messages: [], view: config.features.prechat_form && list.conversations.length === 0 ? 'prechat' : 'chat' });
      this.#connect(session.token);
      this.#set({ phase: 'ready' });
      this.#updateUnread();
      void this.#flushOutbox();
    } catch (error) {
      // A stored session that was revoked (or signed with a retired key) is dropped and made anew once.
      if (retried || !(error instanceof ApiError && error.status === 401) || !this.#options.storage.get('session')) throw error;
      this.#options.storage.remove('session');
      this.#session = undefined;
      await this.#start(true);
    }
  }

  /**
   * One tab at a time makes a session, so tabs opened together stay one visitor (Web Locks where
   * there are). The tab holding the lock gives its session back at once, and when it made a new one
   * holds the lock a moment longer: what it stored reaches other tabs lazily (localStorage is shared
   * across processes), so a tab asking meanwhile waits for it instead of making a second visitor.
   */
  async #ensureSession(): Promise<WidgetSession> {
    if (this.#session && Date.parse(this.#session.expires_at) - Date.now() >= RENEW_MARGIN_MS) return this.#session;
    if (typeof navigator === 'undefined' || !navigator.locks) return this.#ensureSessionNow();
    const { storage, siteKey } = this.#options;
    let granted = false;
    const locked = (options: LockOptions, work: () => Promise<WidgetSession>) =>
      new Promise<WidgetSession | undefined>((resolve, reject) => {
        navigator.locks
          .request(`parley-session:${siteKey ?? 'none'}`, options, async (lock) => {
            if (!lock) return resolve(undefined);
            granted = true;
            const before = storage.get('session');
            resolve(await work());
            if (storage.get('session') !== before) await new Promise((settled) => setTimeout(settled, SESSION_SETTLE_MS));
          })
          .catch(reject);
      });
    try {
      return (
        (await locked({ ifAvailable: true }, () => this.#ensureSessionNow())) ??
        (await locked({}, async () => {
          if (!this.#session) await storage.whenSet('session', 2_000);
          return this.#ensureSessionNow();
        }))!
      );
    } catch (error) {
      // A frame on another site's page may be refused the lock (partitioned storage): then go without it.
      if (granted) throw error;
      return this.#ensureSessionNow();
    }
  }

  async #ensureSessionNow(): Promise<WidgetSession> {
    const { storage, api, siteKey, sessionToken } = this.#options;
    let session = this.#session ?? storage.getJson<WidgetSession | undefined>('session', undefined);
    if (sessionToken && session?.token !== sessionToken) {
      // A verified customer's token from the page: used as it is; the page gives a new one before it expires.
      session = { token: sessionToken, ttl_s: 0, expires_at: tokenExpiry(sessionToken), customer_ref: '', verified: true };
    } else if (!session || Date.parse(session.expires_at) - Date.now() < RENEW_MARGIN_MS) {
      if (!siteKey) throw new ApiError(401, 'unauthorized', 'The chat is not set up: the script tag has no data-site-key.');
      session = await api.createSession(siteKey, session?.verified ? undefined : session?.token);
      storage.setJson('session', session);
    }
    this.#session = session;
    return session;
  }

  /** Switches to a verified customer's session. The visitor's conversations stay with the visitor. */
  async identify(token: string): Promise<void> {
    if (typeof token !== 'string' || !token.startsWith('wst_')) {
      this.#options.emit('error', { code: 'invalid_request', message: 'identify takes {token: "wst_…"} from your server.' });
      return;
    }
    this.#reset();
    this.#options.storage.clear();
    this.#options.sessionToken = token;
    if (this.state.open) await this.start();
  }

  /** Forgets the visitor on this device: ends the session on the server and clears what is stored. */
  async shutdown(): Promise<void> {
    const session = this.#session;
    this.#reset();
    this.#options.storage.clear();
    this.#options.sessionToken = undefined;
    this.#tabs.post({ type: 'session' });
    if (session) await this.#options.api.endSession(session.token).catch(() => undefined);
  }

  #reset(): void {
    this.#socket?.close();
    this.#socket = undefined;
    this.#session = undefined;
    this.#starting = undefined;
    this.#lastId = 0;
    this.#set({ phase: 'idle', conversations: [], conversationId: undefined, messages: [], unread: 0, resolved: false, surveyAnswered: false, view: 'chat', handledBy: 'ai' });
    this.#emitUnread();
  }

  // --- conversations -------------------------------------------------------------------------

  async #show(conversation: WidgetConversation, firstPage?: MessagesPage): Promise<void> {
    this.#lastId = 0;
    this.#options.storage.set('conversation', conversation.id);
    this.#set({
      conversationId: conversation.id,
      messages: this.#outbox()
        .filter((item) => item.conversationId === conversation.id)
        .map((item) => pendingMessage(item)),
      handledBy: conversation.handled_by,
      resolved: conversation.status === 'resolved',
      surveyAnswered: conversation.survey !== null,
      view: 'chat',
      typing: false,
      draft: '',
    });
    await this.#catchUp(firstPage);
  }

  async openConversation(id: string): Promise<void> {
    const conversation = this.state.conversations.find((candidate) => candidate.id === id);
    if (!conversation) return;
    await this.#show(conversation);
    await this.#markRead();
  }

  async newConversation(contact: { name?: string; email?: string } = {}): Promise<void> {
    const session = await this.#ensureSession();
    const conversation = await this.#options.api.openConversation(session.token, { ...contact, locale: this.locale });
    this.#set({ conversations: [conversation, ...this.state.conversations] });
    await this.#show(conversation);
  }

  showList(): void {
    this.#set({ view: 'list' });
    void this.#refreshList();
  }

  backToChat(): void {
    this.#set({ view: 'chat' });
  }

  async #refreshList(): Promise<void> {
    if (!this.#session) return;
    const { conversations } = await this.#options.api.conversations(this.#session.token);
    this.#set({ conversations });
    this.#updateUnread();
  }

  async endConversation(): Promise<void> {
    if (!this.#session || !this.state.conversationId) return;
    const conversation = await this.#options.api.close(this.#session.token, this.state.conversationId);
    this.#set({ resolved: true, conversations: this.state.conversations.map((existing) => (existing.id === conversation.id ? conversation : existing)) });
  }

  async answerSurvey(rating: number, comment: string): Promise<void> {
    if (!this.#session || !this.state.conversationId) return;
    await this.#options.api.survey(this.#session.token, this.state.conversationId, rating, comment);
    this.#set({ surveyAnswered: true });
  }

  // --- messages ------------------------------------------------------------------------------

  /** Shows the message at once as "sending", keeps it in the outbox, and sends it when it can. */
  async send(text: string): Promise<void> {
    const trimmed = text.trim();
    if (!trimmed) return;
    if (!this.state.conversationId || this.state.resolved) await this.newConversation();
    const item: OutboxItem = { conversationId: this.state.conversationId!, messageId: crypto.randomUUID(), text: trimmed, createdAt: new Date().toISOString() };
    this.#saveOutbox([...this.#outbox(), item]);
    this.#set({ messages: [...this.state.messages, pendingMessage(item)] });
    this.#stopTyping();
    await this.#flushOutbox();
  }

  /**
   * Sends a failed message again: one the server failed keeps its id (it may have been stored, and
   * the id makes that harmless); one refused for good goes again as a new message.
   */
  async retry(key: string): Promise<void> {
    const failed = this.state.messages.find((message) => message.key === key && message.status === 'failed');
    if (!failed) return;
    if (this.#outbox().some((item) => item.messageId === key)) {
      this.#saveOutbox(this.#outbox().map((item) => (item.messageId === key ? { ...item, tries: 0 } : item)));
      this.#status(key, 'sending');
      return this.#flushOutbox();
    }
    this.#set({ messages: this.state.messages.filter((message) => message !== failed) });
    await this.send(failed.text);
  }

  #status(key: string, status: ShownMessage['status']): void {
    this.#set({ messages: this.state.messages.map((message) => (message.key === key ? { ...message, status } : message)) });
  }

  /**
   * For the attachments chunk: the session's token, the BFF's address and the conversation, opened
   * first when `open` and there is none to write to.
   */
  async target(open?: boolean): Promise<[token: string, baseUrl: string, conversationId: string | undefined]> {
    if (open && (!this.state.conversationId || this.state.resolved)) await this.newConversation();
    return [(await this.#ensureSession()).token, this.#options.baseUrl, this.state.conversationId];
  }

  /** A message the attachments chunk sent (the socket brings it too; it is shown once). */
  took(message: WidgetMessage): void {
    this.#add([message]);
  }

  choose(choice: ReplyChoice): Promise<void> {
    return this.send(choice.value);
  }

  /** The customer is typing: tell the people answering, at most every few seconds. */
  typing(): void {
    if (!this.#socket?.connected || !this.state.conversationId) return;
    const now = Date.now();
    if (now - this.#typingSentAt > TYPING_EVERY_MS) {
      this.#typingSentAt = now;
      this.#socket.emit('typing:set', { conversation_id: this.state.conversationId, typing: true });
    }
    clearTimeout(this.#typingTimer);
    this.#typingTimer = setTimeout(() => this.#stopTyping(), TYPING_IDLE_MS);
  }

  #stopTyping(): void {
    clearTimeout(this.#typingTimer);
    if (this.#typingSentAt && this.#socket?.connected && this.state.conversationId) {
      this.#socket.emit('typing:set', { conversation_id: this.state.conversationId, typing: false });
    }
    this.#typingSentAt = 0;
  }

  setSound(on: boolean): void {
    this.#options.storage.set('sound', on ? 'on' : 'off');
    this.#set({ sound: on });
  }

  #outbox(): OutboxItem[] {
    return this.#options.storage.getJson<OutboxItem[]>('outbox', []);
  }

  #saveOutbox(items: OutboxItem[]): void {
    if (items.length) this.#options.storage.setJson('outbox', items);
    else this.#options.storage.remove('outbox');
  }

  /** Sends what waits in the outbox, in order, each with its own message_id (so a repeat is harmless). */
  async #flushOutbox(): Promise<void> {
    clearTimeout(this.#flushTimer);
    const session = this.#session;
    if (!session || this.state.phase !== 'ready') return;
    for (const item of this.#outbox()) {
      // Failed by the server SERVER_TRIES times: it waits for the customer's Retry.
      if ((item.tries ?? 0) >= SERVER_TRIES) continue;
      const others = () => this.#outbox().filter((waiting) => waiting.messageId !== item.messageId);
      try {
        // Taken as its push would be (this socket gets none of its own message): shown, and the list's preview.
        this.#received(await this.#options.api.send(session.token, item.conversationId, item.text, item.messageId, this.#socket?.connected ? this.#socket.id : undefined));
        this.#saveOutbox(others());
      } catch (error) {
        if (isFinal(error)) {
          this.#saveOutbox(others());
          this.#status(item.messageId, 'failed');
          continue;
        }
        // The server's own failure counts; a gateway's 502-504 (a restart, a deploy) waits on like the network.
        const tries = (item.tries ?? 0) + (error instanceof ApiError && error.status >= 500 && (error.status < 502 || error.status > 504) ? 1 : 0);
        this.#saveOutbox(this.#outbox().map((waiting) => (waiting.messageId === item.messageId ? { ...waiting, tries } : waiting)));
        if (tries >= SERVER_TRIES) {
          this.#status(item.messageId, 'failed');
          continue;
        }
        // The server's failure is tried again after 1 s, then 2 s (so "Not sent" shows within seconds);
        // offline, or the BFF busy: try again in 5 s, and at once when the browser is back online.
        this.#flushTimer = setTimeout(() => void this.#flushOutbox(), tries > (item.tries ?? 0) ? tries * 1_000 : 5_000);
        return;
      }
    }
  }

  /** Fetches every message after the last one shown (after a reconnect, too). */
  /** Reads what is new by cursor; `firstPage`, when given, is the first page already fetched (from the start). */
  async #catchUp(firstPage?: MessagesPage): Promise<void> {
    const session = this.#session ?? (await this.#ensureSession());
    const id = this.state.conversationId;
    if (!id) return;
    let page;
    do {
      page = firstPage ?? (await this.#options.api.messages(session.token, id, this.#lastId));
      firstPage = undefined;
      if (this.state.conversationId !== id) return;
      this.#add(page.messages, false);
    } while (page.messages.length === HISTORY_PAGE_SIZE);
  }

  #connect(token: string): void {
    this.#socket?.close();
    // WebSocket only (the widget's bundle carries no other transport); while it cannot connect, poll.
    // The token is asked for at every (re)connect: the server closes a socket whose token expired.
    const auth = (send: (data: object) => void) => void this.#ensureSession().then((session) => send({ token: session.token }), () => send({ token }));
    const socket: Socket<WidgetServerEvents, WidgetClientEvents> = io(new URL(WIDGET_NAMESPACE, this.#options.baseUrl).href, { auth, transports: ['websocket'] });
    socket.on('connect_error', () => this.#pollWhileDisconnected());
    socket.on('message:created', (message) => this.#received(message));
    socket.on('message:updated', (update) => {
      if (update.conversation_id !== this.state.conversationId) return;
      // It can come before the answer to this tab's own send (which then says "sent"): kept for it.
      this.#statuses.set(update.id, update.status);
      this.#set({ messages: this.state.messages.map((message) => (message.id === update.id ? { ...message, status: update.status } : message)) });
    });
    socket.on('message:delta', (delta) => {
      if (delta.conversation_id === this.state.conversationId) this.#set({ draft: this.state.draft + delta.text });
    });
    socket.on('typing:changed', (change) => {
      if (change.conversation_id === this.state.conversationId) this.#set({ typing: change.typing });
    });
    socket.on('conversation:handed_over', (notice) => this.#patchConversation(notice.conversation_id, { handled_by: 'human' }));
    socket.on('conversation:handed_back', (notice) => this.#patchConversation(notice.conversation_id, { handled_by: 'ai' }));
    socket.on('conversation:closed', (notice) => this.#patchConversation(notice.conversation_id, { status: 'resolved' }));
    socket.on('conversation:reopened', (notice) => this.#patchConversation(notice.conversation_id, { status: 'open', handled_by: 'human' }));
    socket.on('connect', () => {
      this.#setOnline(true);
      // After every (re)connect, recovered or not, read by cursor what may have been missed, and take
      // the unread counts from the server again (while away, this tab took another tab's count).
      void this.#catchUp().catch(() => undefined);
      void this.#refreshList().catch(() => undefined);
      void this.#flushOutbox();
    });
    socket.on('disconnect', (reason) => {
      // A reply cut off mid-stream comes whole with the catch-up after the reconnect.
      this.#set({ typing: false, draft: '' });
      if (reason === 'io server disconnect') setTimeout(() => socket.connect(), 1e3);
    });
    this.#socket = socket;
  }

  #pollTimer: ReturnType<typeof setTimeout> | undefined;

  /** Reads new messages every few seconds while the socket is down (polling does not count against limits). */
  #pollWhileDisconnected(): void {
    if (this.#pollTimer) return;
    const poll = () => {
      this.#pollTimer = undefined;
      if (!this.#socket || this.#socket.connected) return;
      void this.#catchUp().catch(() => undefined);
      this.#pollTimer = setTimeout(poll, POLL_MS);
    };
    this.#pollTimer = setTimeout(poll, POLL_MS);
  }

  #patchConversation(id: string, patch: Partial<WidgetConversation>): void {
    this.#set({ conversations: this.state.conversations.map((conversation) => (conversation.id === id ? { ...conversation, ...patch } : conversation)) });
    if (id !== this.state.conversationId) return;
    if (patch.handled_by) this.#set({ handledBy: patch.handled_by });
    if (patch.status) this.#set({ resolved: patch.status === 'resolved', typing: false });
  }

  /** A message pushed by the BFF: shown if it belongs to the open conversation, counted as unread when unseen. */
  #received(message: WidgetMessage): void {
    const known = this.state.conversations.find((conversation) => conversation.id === message.conversation_id);
    if (!known || !this.state.conversationId) void this.#adopt(message.conversation_id);
    if (message.conversation_id === this.state.conversationId) {
      if (message.author !== 'customer') this.state.draft = '';
      this.#add([message], true);
    }
    const author = message.author;
    const seen = author === 'customer' || (this.state.open && message.conversation_id === this.state.conversationId && this.state.view === 'chat' && document.visibilityState === 'visible');
    // The list's preview follows every message but notices at once, so it is right before the list is fetched again.
    // A newer one may be there already (an answer pushed before the answer to this tab's own send).
    const preview = (conversation: WidgetConversation) => (author === 'system' || (conversation.last_message?.id ?? 0) > message.id ? {} : { last_message: message });
    this.#set({ conversations: this.state.conversations.map((conversation) => (conversation.id === message.conversation_id ? { ...conversation, unread: conversation.unread + (seen ? 0 : 1), ...preview(conversation) } : conversation)) });
    if (author === 'customer') return;
    if (seen) void this.#markRead();
    else this.#updateUnread();
    if (author !== 'system') {
      this.#options.emit('message', { conversation_id: message.conversation_id, author, text: message.text });
      // The chime loads only for customers who turned the sound on.
      if (this.state.sound && !seen) void import('./chime.ts').then((module) => module.chimeOnce(`${message.id}`));
    }
    this.#tabs.post({ type: 'message', conversationId: message.conversation_id });
  }

  /** A conversation started elsewhere (another tab): listed, and shown when this tab has none open. */
  async #adopt(conversationId: string): Promise<void> {
    await this.#refreshList();
    const conversation = this.state.conversations.find((candidate) => candidate.id === conversationId);
    if (conversation && !this.state.conversationId) await this.#show(conversation);
  }

  /** Shows a stored message once: it replaces the customer's own copy in flight, and repeats are dropped. */
  #add(batch: readonly WidgetMessage[], live = true): void {
    // One state update for a whole page of history, so a long history renders (and scrolls) once.
    let messages = this.state.messages;
    let answered = false;
    for (const message of batch) {
      if (message.conversation_id !== this.state.conversationId) continue;
      this.#lastId = Math.max(this.#lastId, message.id);
      if (messages.some((existing) => existing.id === message.id)) continue;
      const shown: ShownMessage = {
        key: message.message_id && message.author === 'customer' ? message.message_id : `m${message.id}`,
        id: message.id,
        author: message.author,
        authorName: message.author_name,
        text: message.text,
        createdAt: message.created_at,
        status: (message.status === 'sent' && this.#statuses.get(message.id)) || message.status,
        messageId: message.message_id,
        choices: message.choices,
        card: message.card,
        attachments: message.attachments,
        notice: message.notice,
      };
      const pending = message.message_id ? messages.findIndex((existing) => existing.id === undefined && existing.messageId === message.message_id) : -1;
      messages = pending >= 0 ? messages.map((existing, index) => (index === pending ? shown : existing)) : [...messages, shown];
      if (message.author !== 'customer') answered = true;
    }
    if (messages === this.state.messages) return;
    this.#set({ messages: messages.sort(byOrder), ...(live && answered ? { typing: false } : {}) });
  }

  async #markRead(): Promise<void> {
    const id = this.state.conversationId;
    if (!this.#session || !id || !this.state.open || this.#lastId === 0) return;
    this.#set({ conversations: this.state.conversations.map((conversation) => (conversation.id === id ? { ...conversation, unread: 0 } : conversation)) });
    this.#updateUnread();
    this.#tabs.post({ type: 'read', conversationId: id });
    if (this.#socket?.connected) this.#socket.emit('read:mark', { conversation_id: id, last_read_id: this.#lastId });
    else await this.#options.api.read(this.#session.token, id, this.#lastId).catch(() => undefined);
  }

  #updateUnread(): void {
    const unread = this.state.conversations.reduce((sum, conversation) => sum + conversation.unread, 0);
    if (unread === this.state.unread) return;
    this.#set({ unread });
    this.#tabs.post({ type: 'unread', count: unread });
    this.#emitUnread();
  }

  #emitUnread(): void {
    this.#options.emit('unread', { count: this.state.unread });
  }

  #fromTab(message: TabMessage): void {
    switch (message.type) {
      case 'open':
        this.setOpen(message.open, true);
        return;
      case 'unread':
        // A tab with its own connection counts for itself (two counts would fight); one without takes the count.
        if (!this.#socket?.connected && message.count !== this.state.unread) {
          this.#set({ unread: message.count });
          this.#emitUnread();
        }
        return;
      case 'read':
        this.#set({ conversations: this.state.conversations.map((conversation) => (conversation.id === message.conversationId ? { ...conversation, unread: 0 } : conversation)) });
        this.#updateUnread();
        return;
      case 'message':
        if (!this.state.conversationId) void this.#adopt(message.conversationId).catch(() => undefined);
        else if (message.conversationId === this.state.conversationId && !this.#socket?.connected) void this.#catchUp().catch(() => undefined);
        return;
      case 'session':
        // Another tab shut the chat down: forget here too.
        this.#reset();
        return;
    }
  }

  #setOnline(online: boolean): void {
    if (online === this.state.online) return;
    this.#set({ online });
    if (online) void this.#flushOutbox();
  }

  #set(patch: Partial<ChatState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.#listeners) listener();
  }

  destroy(): void {
    this.#socket?.close();
    this.#tabs.close();
    removeEventListener('online', this.#onlineHandler);
    removeEventListener('offline', this.#offlineHandler);
  }
}

/** When a session token expires, read from its payload (not verified here: the BFF does that). */
function tokenExpiry(token: string): string {
  try {
    const payload = token.slice(4).split('.')[1] ?? '';
    const { exp } = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: number };
    if (typeof exp === 'number') return new Date(exp * 1000).toISOString();
  } catch {
    // Not a JWT we can read: treat it as good for an hour and let the BFF decide.
  }
  return new Date(Date.now() + 3600_000).toISOString();
}

function pendingMessage(item: OutboxItem): ShownMessage {
  return { key: item.messageId, author: 'customer', authorName: null, text: item.text, createdAt: item.createdAt, status: (item.tries ?? 0) < SERVER_TRIES ? 'sending' : 'failed', messageId: item.messageId, choices: null, card: null };
}

/** Stored messages in id order; the customer's messages in flight stay last, in the order written. */
function byOrder(a: ShownMessage, b: ShownMessage): number {
  if (a.id === undefined || b.id === undefined) return a.id === undefined ? (b.id === undefined ? 0 : 1) : -1;
  return a.id - b.id;
}
