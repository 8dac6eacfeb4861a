import { io, type Socket } from 'socket.io-client';
import { DESK_NAMESPACE, type DeskClientEvents, type DeskServerEvents } from '../shared/desk-socket-events.ts';
import { ClientError } from '../shared/client-error.ts';
import { refusalCode } from '../shared/handshake.ts';
import { DeskApi, type ListQuery } from './api.ts';
import { alertMessage, alertWaiting } from './alert.ts';
import { arrivals, attentionCount, titleWith, type Seen } from './attention.ts';
import { contactName } from './format.ts';
import { keepLive } from './keep-live.ts';
import { EMPTY_DIRECTORY, loadDirectory, type Directory } from './directory.ts';
import { withFirstPage, withNextPage, type ListPages } from './list-pages.ts';
import { snoozeUntil, type SnoozeChoice } from './snooze-times.ts';
import type { ContactChange, DeskConversation, DeskMessage, SearchHit, Session } from './types.ts';

export interface DeskState {
  session: Session;
  accountId: number;
  accountName: string;
  query: ListQuery;
  conversations: DeskConversation[];
  /** Where the list's next page starts (null: every row is listed). */
  nextCursor: string | null;
  /** The account's labels, teams and people, to label and assign with and to name who has a conversation. */
  directory: Directory;
  /** The person says they are available (presence `online`). */
  available: boolean;
  counts: { mine: number; unassigned: number; all: number };
  selected: DeskConversation | undefined;
  messages: DeskMessage[];
  earlier: DeskConversation[];
  /** The customer of the open conversation is typing. */
  customerTyping: boolean;
  /** The AI's answer in the open conversation as it is written (streamed), until it is stored; empty when none. */
  aiDraft: string;
  connected: boolean;
  /** The connection was lost (sleep, network, a server restart) and is not back yet: the console says so. */
  lost: boolean;
  /** A sound and a browser notification when a customer starts waiting for a person (opt-in). */
  alerts: boolean;
  error: string | undefined;
}

const TYPING_EVERY_MS = 2_000;
const TYPING_IDLE_MS = 4_000;

/**
 * The console's state and everything that talks to the helpdesk: the Application API for every
 * record, the `/desk` socket for what changed (then read again), the customer's typing and read
 * marks. Components render `state` and call the methods.
 */
export class DeskStore {
  state: DeskState;
  readonly #api: DeskApi;
  readonly #socket: Socket<DeskServerEvents, DeskClientEvents>;
  readonly #listeners = new Set<() => void>();
  #listTimer: ReturnType<typeof setTimeout> | undefined;
  #typingSentAt = 0;
  #typingTimer: ReturnType<typeof setTimeout> | undefined;
  #onSignedOut: () => void;
  /** What was seen of each conversation listed, to notice a new handover or a new message. */
  readonly #seen = new Map<number, Seen>();
  #listed = false;
  #firstCount = 0;
  #loadingMore = false;
  #closed = false;
  readonly #stopLive: () => void;

  constructor(session: Session, accountId: number, onSignedOut: () => void) {
    const account = session.user.accounts.find((entry) => entry.id === accountId);
    this.state = {
      session,
      accountId,
      accountName: account?.name ?? '',
      query: { status: 'open', assignee_type: 'all', sort_by: 'latest', label: '' },
      conversations: [],
      nextCursor: null,
      directory: EMPTY_DIRECTORY,
      available: false,
      counts: { mine: 0, unassigned: 0, all: 0 },
      selected: undefined,
      messages: [],
      earlier: [],
      customerTyping: false,
      aiDraft: '',
      connected: false,
      lost: false,
      alerts: localStorage.getItem('parley-console-alerts') === 'on',
      error: undefined,
    };
    this.#onSignedOut = onSignedOut;
    this.#api = new DeskApi(session.access_token, accountId);
    this.#socket = io(DESK_NAMESPACE, {
      auth: { token: session.access_token, account_id: accountId },
      transports: ['websocket'],
    });
    this.#listen();
    this.#stopLive = keepLive(this.#socket);
  }

  /** What the `/desk` socket tells: connected or not, what changed, the customer's typing and read marks. */
  #listen(): void {
    this.#socket.on('connect', () => {
      this.#set({ connected: true, lost: false, error: undefined });
      // After any reconnect: read what may have been missed, and watch the open conversation again.
      void this.refreshList();
      if (this.state.selected) {
        this.#socket.emit('conversation:watch', { conversation_id: this.state.selected.id });
        void this.#reloadSelected();
      }
    });
    this.#socket.on('disconnect', () => this.#set({ connected: false, lost: !this.#closed, customerTyping: false }));
    this.#socket.on('connect_error', (error) => {
      if (refusalCode(error) === 'unauthorized') this.#signedOut();
    });
    this.#socket.on('conversation:changed', (change) => {
      if (change.id === this.state.selected?.id) void this.#reloadSelected();
      this.#scheduleList();
    });
    // Someone said whether they are available: who is, and one's own switch on another tab, are read again.
    this.#socket.on('presence:changed', () => void this.refreshDirectory());
    this.#socket.on('typing:changed', (change) => {
      if (change.conversation_id === this.state.selected?.id) this.#set({ customerTyping: change.typing });
    });
    this.#socket.on('message:delta', (delta) => {
      if (delta.conversation_id === this.state.selected?.id) this.#set({ aiDraft: this.state.aiDraft + delta.text });
    });
    this.#socket.on('read:changed', (change) => {
      const selected = this.state.selected;
      if (selected && change.conversation_id === selected.id)
        this.#set({ selected: { ...selected, contact_last_read_id: change.last_read_id } });
    });
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #set(patch: Partial<DeskState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.#listeners) listener();
  }

  /** Runs a call of the API; a refused session signs out, anything else is shown. */
  async #try<T>(call: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await call();
      if (this.state.error) this.#set({ error: undefined });
      return value;
    } catch (error) {
      if (error instanceof ClientError && error.code === 'unauthorized') {
        this.#signedOut();
        return undefined;
      }
      // While the connection is lost the banner says so; a failed read is read again when it is back.
      if (!(error instanceof ClientError) && !this.state.connected) return undefined;
      this.#set({ error: error instanceof Error ? error.message : String(error) });
      return undefined;
    }
  }

  #signedOut(): void {
    this.close();
    this.#onSignedOut();
  }

  get me(): number {
    return this.state.session.user.id;
  }

  async start(): Promise<void> {
    const account = await this.#try(() => this.#api.account());
    if (account) this.#set({ accountName: account.name });
    await this.refreshDirectory();
  }

  async refreshDirectory(): Promise<void> {
    const directory = await loadDirectory(this.#api);
    const mine = directory.people.find((person) => person.user_id === this.me);
    this.#set({ directory, available: mine?.availability_status === 'online' });
  }

  #scheduleList(): void {
    clearTimeout(this.#listTimer);
    this.#listTimer = setTimeout(() => void this.refreshList(), 100);
  }

  async refreshList(): Promise<void> {
    const list = await this.#try(() => this.#api.list(this.state.query));
    if (!list) return;
    const { meta, payload } = list.data;
    const pages = withFirstPage(this.#pages(), payload, meta.next_cursor);
    this.#firstCount = pages.firstCount;
    this.#set({
      conversations: pages.rows,
      nextCursor: pages.next,
      counts: { mine: meta.mine_count, unassigned: meta.unassigned_count, all: meta.all_count },
    });
    this.#tell(payload);
  }

  #pages(): ListPages {
    return { rows: this.state.conversations, firstCount: this.#firstCount, next: this.state.nextCursor };
  }

  /** The list's next page (scrolled to its end); one read at a time. */
  async loadMore(): Promise<void> {
    const after = this.state.nextCursor;
    if (after === null || this.#loadingMore) return;
    this.#loadingMore = true;
    const list = await this.#try(() => this.#api.list(this.state.query, after)).finally(() => {
      this.#loadingMore = false;
    });
    if (!list || this.state.nextCursor !== after) return;
    const pages = withNextPage(this.#pages(), list.data.payload, list.data.meta.next_cursor);
    this.#set({ conversations: pages.rows, nextCursor: pages.next });
  }

  /** Conversations found by the customer's words, a name, an e-mail or a number. */
  async search(q: string): Promise<SearchHit[]> {
    const found = await this.#try(() => this.#api.search(q));
    return found?.data.payload ?? [];
  }

  /**
   * Says what is new since the last read: the tab's title counts what wants the person; with alerts
   * on, a chime and a notification for a customer who started waiting (handed over) and for a new
   * message in one's own conversations (not the one being read).
   */
  #tell(payload: DeskConversation[]): void {
    const watching = document.visibilityState === 'visible' ? this.state.selected?.id : undefined;
    const news = arrivals(this.#seen, payload, this.me, watching);
    const first = !this.#listed;
    this.#listed = true;
    for (const conversation of payload)
      this.#seen.set(conversation.id, { status: conversation.status, unread: conversation.unread_count });
    document.title = titleWith(attentionCount(payload, this.me));
    if (!this.state.alerts || first) return;
    const waiting = news.handovers[0];
    const wrote = news.messages[0];
    if (waiting) alertWaiting(contactName(waiting));
    else if (wrote) alertMessage(contactName(wrote), wrote.id);
  }

  async setQuery(patch: Partial<DeskState['query']>): Promise<void> {
    // Another filter or order is another list: its pages start again.
    this.#set({ query: { ...this.state.query, ...patch }, conversations: [], nextCursor: null });
    this.#firstCount = 0;
    await this.refreshList();
  }

  async open(id: number | undefined): Promise<void> {
    if (id === undefined) {
      this.#socket.emit('conversation:watch', { conversation_id: null });
      this.#set({ selected: undefined, messages: [], earlier: [], customerTyping: false, aiDraft: '' });
      return;
    }
    this.#socket.emit('conversation:watch', { conversation_id: id });
    const [conversation, messages, earlier] = await Promise.all([
      this.#try(() => this.#api.conversation(id)),
      this.#try(() => this.#api.messages(id)),
      this.#try(() => this.#api.earlier(id)),
    ]);
    if (!conversation || !messages) return;
    this.#set({
      selected: conversation,
      messages: messages.payload,
      earlier: earlier?.payload ?? [],
      customerTyping: false,
      aiDraft: '',
    });
    await this.#markRead();
  }

  async #reloadSelected(): Promise<void> {
    const id = this.state.selected?.id;
    if (id === undefined) return;
    const [conversation, messages] = await Promise.all([
      this.#try(() => this.#api.conversation(id)),
      this.#try(() => this.#api.messages(id)),
    ]);
    if (!conversation || !messages || this.state.selected?.id !== id) return;
    // A new message ends the streamed answer (it is stored now); a reload for anything else keeps it growing.
    const grown = messages.payload.length !== this.state.messages.length;
    this.#set({ selected: conversation, messages: messages.payload, ...(grown ? { aiDraft: '' } : {}) });
    if (conversation.unread_count > 0 && document.visibilityState === 'visible') await this.#markRead();
  }

  async #markRead(): Promise<void> {
    const id = this.state.selected?.id;
    if (id === undefined || (this.state.selected?.unread_count ?? 0) === 0) return;
    const read = await this.#try(() => this.#api.markRead(id));
    if (read && this.state.selected?.id === id) this.#set({ selected: read });
    this.#scheduleList();
  }

  /** Sends an answer (or a private note), with files or without; the same echo id again is safe after a failure. */
  async send(content: string, isPrivate: boolean, echoId: string, files: readonly File[] = []): Promise<boolean> {
    const id = this.state.selected?.id;
    if (id === undefined) return false;
    this.stopTyping();
    const sent = await this.#try(() => this.#api.reply(id, content, isPrivate, echoId, files));
    if (!sent) return false;
    await this.#reloadSelected();
    this.#scheduleList();
    return true;
  }

  async #move(call: (id: number) => Promise<DeskConversation>): Promise<void> {
    const id = this.state.selected?.id;
    if (id === undefined) return;
    const moved = await this.#try(() => call(id));
    if (moved) this.#set({ selected: moved });
    await this.#reloadSelected();
    this.#scheduleList();
  }

  /** A customer's file, to show (a thumbnail) or open; undefined when it cannot be read. */
  file = (dataUrl: string): Promise<Blob | undefined> => this.#api.file(dataUrl).catch(() => undefined);
  assignToMe = () => this.#move((id) => this.#api.assign(id, this.me));
  handBack = () => this.#move((id) => this.#api.setStatus(id, 'pending'));
  resolve = () => this.#move((id) => this.#api.setStatus(id, 'resolved'));
  reopen = () => this.#move((id) => this.#api.setStatus(id, 'open'));
  assignTo = (to: { assignee_id?: number | null; team_id?: number | null }) =>
    this.#move((id) => this.#api.assignTo(id, to));
  snooze = (choice: SnoozeChoice) => this.#move((id) => this.#api.snooze(id, snoozeUntil(choice, Date.now())));
  setLabels = (labels: string[]) =>
    this.#move(async (id) => {
      await this.#api.setLabels(id, labels);
      return this.#api.conversation(id);
    });

  /** A contact's record for the contact panel (undefined when it cannot be read: the error shows). */
  contact = (id: number) => this.#try(() => this.#api.contact(id));

  /** Saves a contact's changes; the open conversation and the list show the new name. */
  async saveContact(id: number, change: ContactChange) {
    const saved = await this.#try(() => this.#api.updateContact(id, change));
    if (saved) {
      await this.#reloadSelected();
      this.#scheduleList();
    }
    return saved;
  }

  /** The person says they are available (or not): the widget's header follows. */
  async setAvailable(on: boolean): Promise<void> {
    const set = await this.#try(() => this.#api.setAvailability(on ? 'online' : 'offline'));
    if (set) this.#set({ available: on });
  }

  /** The AI's help for a conversation; a refusal is the caller's to show (the panel says it), not the console's error. */
  assist(id: number) {
    return this.#api.assist(id);
  }

  canned(search: string) {
    return this.#try(() => this.#api.canned(search)).then((found) => found ?? []);
  }

  /** The person types: the customer sees it, at most every two seconds, and it ends after a pause. */
  typing(): void {
    const id = this.state.selected?.id;
    if (id === undefined || this.state.selected?.status === 'resolved') return;
    const now = Date.now();
    if (now - this.#typingSentAt > TYPING_EVERY_MS) {
      this.#typingSentAt = now;
      this.#socket.emit('typing:set', { conversation_id: id, typing: true });
    }
    clearTimeout(this.#typingTimer);
    this.#typingTimer = setTimeout(() => this.stopTyping(), TYPING_IDLE_MS);
  }

  stopTyping(): void {
    clearTimeout(this.#typingTimer);
    const id = this.state.selected?.id;
    if (this.#typingSentAt && id !== undefined) this.#socket.emit('typing:set', { conversation_id: id, typing: false });
    this.#typingSentAt = 0;
  }

  async setAlerts(on: boolean): Promise<void> {
    if (on && 'Notification' in window && Notification.permission === 'default') await Notification.requestPermission();
    localStorage.setItem('parley-console-alerts', on ? 'on' : 'off');
    this.#set({ alerts: on });
  }

  async signOut(): Promise<void> {
    await this.#api.signOut().catch(() => undefined);
    this.#signedOut();
  }

  close(): void {
    this.#closed = true;
    this.#stopLive();
    clearTimeout(this.#listTimer);
    clearTimeout(this.#typingTimer);
    this.#socket.close();
  }
}
