import { PacketType, decodePacket, encodePacket, type Packet } from '../socket-parser.ts';

/**
 * The widget's Socket.IO client: one namespace over one WebSocket, Engine.IO protocol 4 and
 * Socket.IO protocol 5 (https://socket.io/docs/v4/engine-io-protocol/,
 * https://socket.io/docs/v4/socket-io-protocol/), in place of socket.io-client, which with its
 * Engine.IO client cost the first download about 8.5 KB gzip for what the widget uses of it
 * (issue 34). The BFF's server is the real Socket.IO server; it cannot tell this client from
 * socket.io-client's WebSocket transport. What it keeps of socket.io-client, as the widget relies on it:
 * - `auth` asked for at every (re)connect, sent in the CONNECT packet, with the connection state
 *   recovery's `pid` and last `offset` once the server gave a `pid` (then `recovered` says whether
 *   the server replayed what was missed);
 * - reconnecting when the transport closes, errs, misses the server's pings or cannot open, after
 *   1 s doubling to 5 s, ±50 % (socket.io-client's Backoff), with `connect_error` at each failed
 *   try; none after the server refused the namespace (CONNECT_ERROR) or disconnected it (`io server disconnect`);
 * - closing the transport when the browser says it went offline (engine.io-client does so too);
 * - emits made while disconnected wait for the connection; acks by callback as the last argument,
 *   or as a promise with a timeout (`timeout(ms).emitWithAck(…)`, rejected with socket.io-client's
 *   "operation has timed out").
 * It leaves out what the widget never uses: other transports, binary packets, server-side acks,
 * volatile emits, more than one namespace per connection.
 */

// socket.io-client's defaults.
const RECONNECT_FIRST_MS = 1_000;
const RECONNECT_MAX_MS = 5_000;
const OPEN_TIMEOUT_MS = 20_000;

// Engine.IO packet types (the first character of every WebSocket frame).
const OPEN = '0';
const CLOSE = '1';
const PING = '2';
const PONG = '3';
const MESSAGE = '4';

type Listener = (...args: never[]) => void;
type Arguments<F> = F extends (...args: infer A) => void ? A : never;
/** What the server's ack gives an event of the shape `(data, ack?: (result) => void)`. */
type AckResult<F> = F extends (data: never, ack?: (result: infer R) => void) => void ? R : never;

export interface ReservedEvents {
  connect: () => void;
  connect_error: (error: Error & { data?: unknown }) => void;
  /** `io server disconnect`, `io client disconnect`, `transport close`, `transport error`, `ping timeout`, `parse error`. */
  disconnect: (reason: string) => void;
}

/** The part of socket.io-client's `Socket` the widget uses, typed by the shared event maps. */
export class SocketClient<ListenEvents, EmitEvents> {
  connected = false;
  /** The server's id of this connection to the namespace, while connected. */
  id: string | undefined;
  /** Whether the server replayed what this socket missed while disconnected (connection state recovery). */
  recovered = false;
  #listeners = new Map<string, Listener[]>();
  #acks = new Map<number, (...args: unknown[]) => void>();
  #nextAck = 0;
  #buffer: Packet[] = [];
  #socket: WebSocket | undefined;
  /** The server's Engine.IO handshake came on the WebSocket there is. */
  #open = false;
  /** Wanted connected: false after `close()`, a refused CONNECT or the server's DISCONNECT. */
  #active = false;
  #tries = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #pingTimer: ReturnType<typeof setTimeout> | undefined;
  /** The server's pingInterval + pingTimeout: with no ping for this long, the connection is taken for lost. */
  #pingWithin = 0;
  #pid: string | undefined;
  #offset: string | undefined;
  readonly #goOffline = () => this.#drop('transport close');

  /** Connects at once to `namespace` of the Socket.IO server at `origin` (its http(s) address). */
  constructor(
    readonly origin: string,
    readonly namespace: string,
    readonly auth: (send: (data: object) => void) => void,
  ) {
    this.connect();
  }

  on<E extends keyof ListenEvents & string>(event: E, listener: ListenEvents[E] & Listener): this;
  on<E extends keyof ReservedEvents>(event: E, listener: ReservedEvents[E]): this;
  on(event: string, listener: Listener): this {
    this.#listeners.set(event, [...(this.#listeners.get(event) ?? []), listener]);
    return this;
  }

  off<E extends keyof ListenEvents & string>(event: E, listener: ListenEvents[E] & Listener): this;
  off<E extends keyof ReservedEvents>(event: E, listener: ReservedEvents[E]): this;
  off(event: string, listener: Listener): this {
    this.#listeners.set(
      event,
      (this.#listeners.get(event) ?? []).filter((known) => known !== listener),
    );
    return this;
  }

  /** The next `emitWithAck` gives up after `ms` without the server's ack. */
  timeout(ms: number) {
    return {
      emitWithAck: <E extends keyof EmitEvents & string>(
        event: E,
        data: Arguments<EmitEvents[E]>[0],
      ): Promise<AckResult<EmitEvents[E]>> =>
        new Promise((resolve, reject) => {
          const id = this.#nextAck;
          const timer = setTimeout(() => {
            this.#acks.delete(id);
            reject(new Error('operation has timed out'));
          }, ms);
          const args = [data, (result: AckResult<EmitEvents[E]>) => (clearTimeout(timer), resolve(result))];
          this.emit(event, ...(args as Arguments<EmitEvents[E]>));
        }),
    };
  }

  /** Sends an event; with a function last, it is called with the server's ack. Waits while disconnected. */
  emit<E extends keyof EmitEvents & string>(event: E, ...args: Arguments<EmitEvents[E]>): this {
    const data: unknown[] = [event, ...args];
    const packet: Packet = { type: PacketType.EVENT, nsp: this.namespace, data };
    const ack = args.at(-1);
    if (typeof ack === 'function') {
      data.pop();
      packet.id = this.#nextAck++;
      this.#acks.set(packet.id, ack as (...args: unknown[]) => void);
    }
    if (this.connected) this.#send(packet);
    else this.#buffer.push(packet);
    return this;
  }

  /** Connects again after `close()` or the server's DISCONNECT; nothing when already connecting. */
  connect(): this {
    this.#active = true;
    if (!this.#socket) this.#openTransport();
    else if (this.#open && !this.connected) this.#sendConnect();
    return this;
  }

  /** Leaves the namespace and closes the WebSocket; no reconnect follows. */
  close(): this {
    if (this.connected) this.#send({ type: PacketType.DISCONNECT, nsp: this.namespace });
    this.#active = false;
    this.#closeTransport();
    if (this.connected) this.#disconnected('io client disconnect');
    return this;
  }

  #fire(event: string, args: unknown[]): void {
    for (const listener of this.#listeners.get(event) ?? []) (listener as (...args: unknown[]) => void)(...args);
  }

  #openTransport(): void {
    const url = new URL('/socket.io/?EIO=4&transport=websocket', this.origin);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = (this.#socket = new WebSocket(url));
    this.#timer = setTimeout(() => this.#drop('timeout'), OPEN_TIMEOUT_MS);
    socket.onmessage = (event: MessageEvent) => this.#frame(String(event.data));
    socket.onerror = () => this.#drop('transport error');
    socket.onclose = () => this.#drop('transport close');
    // engine.io-client leaves out localhost, where going offline does not cut the connection.
    if (url.hostname !== 'localhost') addEventListener('offline', this.#goOffline);
  }

  #closeTransport(): void {
    clearTimeout(this.#timer);
    clearTimeout(this.#pingTimer);
    removeEventListener('offline', this.#goOffline);
    const socket = this.#socket;
    this.#socket = undefined;
    this.#open = false;
    if (!socket) return;
    socket.onmessage = socket.onerror = socket.onclose = null;
    socket.close();
  }

  /** The transport failed or closed: tell, and try again later unless no longer wanted. */
  #drop(reason: string): void {
    if (!this.#socket) return;
    const wasOpen = this.#open;
    this.#closeTransport();
    if (wasOpen) this.#disconnected(reason);
    else this.#fire('connect_error', [new Error(reason)]);
    if (!this.#active) return;
    const wait = Math.min(RECONNECT_FIRST_MS * 2 ** this.#tries++, RECONNECT_MAX_MS);
    this.#timer = setTimeout(
      () => this.#active && !this.#socket && this.#openTransport(),
      wait * (0.5 + Math.random()),
    );
  }

  #disconnected(reason: string): void {
    this.connected = false;
    this.id = undefined;
    this.#fire('disconnect', [reason]);
  }

  #frame(frame: string): void {
    const type = frame[0];
    if (type === OPEN) {
      const { pingInterval, pingTimeout } = JSON.parse(frame.slice(1)) as { pingInterval: number; pingTimeout: number };
      this.#pingWithin = pingInterval + pingTimeout;
      clearTimeout(this.#timer);
      this.#open = true;
      this.#tries = 0;
      this.#expectPing();
      if (this.#active) this.#sendConnect();
    } else if (type === PING) {
      this.#socket?.send(PONG);
      this.#expectPing();
    } else if (type === CLOSE) this.#drop('transport close');
    else if (type === MESSAGE) {
      try {
        this.#packet(decodePacket(frame.slice(1)));
      } catch {
        this.#drop('parse error');
      }
    }
  }

  #expectPing(): void {
    clearTimeout(this.#pingTimer);
    this.#pingTimer = setTimeout(() => this.#drop('ping timeout'), this.#pingWithin);
  }

  #sendConnect(): void {
    const socket = this.#socket;
    this.auth((data) => {
      const recovery = this.#pid ? { pid: this.#pid, offset: this.#offset } : {};
      // Not on a later connection: the one asked for may have closed while the auth was being made.
      if (this.#open && this.#socket === socket)
        this.#send({ type: PacketType.CONNECT, nsp: this.namespace, data: { ...recovery, ...data } });
    });
  }

  #send(packet: Packet): void {
    this.#socket?.send(MESSAGE + encodePacket(packet));
  }

  #packet({ type, nsp, id, data }: Packet): void {
    if (nsp !== this.namespace) return;
    if (type === PacketType.CONNECT) {
      const { sid, pid } = data as { sid: string; pid?: string };
      this.id = sid;
      this.recovered = !!pid && pid === this.#pid;
      this.#pid = pid;
      this.connected = true;
      for (const waiting of this.#buffer.splice(0)) this.#send(waiting);
      this.#fire('connect', []);
    } else if (type === PacketType.EVENT) {
      const [event, ...args] = data as [string, ...unknown[]];
      // With connection state recovery the server adds each event's offset last.
      if (this.#pid && typeof args.at(-1) === 'string') this.#offset = args.at(-1) as string;
      this.#fire(event, args);
    } else if (type === PacketType.ACK) {
      this.#acks.get(id!)?.(...(data as unknown[]));
      this.#acks.delete(id!);
    } else if (type === PacketType.DISCONNECT) {
      this.#active = false;
      this.#closeTransport();
      this.#disconnected('io server disconnect');
    } else if (type === PacketType.CONNECT_ERROR) {
      this.#active = false;
      this.#closeTransport();
      const refusal = data as { message?: string; data?: unknown };
      this.#fire('connect_error', [Object.assign(new Error(refusal.message), { data: refusal.data })]);
    }
  }
}
