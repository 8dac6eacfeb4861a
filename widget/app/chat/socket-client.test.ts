import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket } from 'socket.io';
import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SocketClient } from './socket-client.ts';

/**
 * The widget's own Socket.IO client against the real Socket.IO server (the one the BFF runs), over
 * real WebSockets. Node 20 has no browser globals: `ws` gives the WebSocket (the browser's API), and
 * an EventTarget stands in for `window`, so that a test can say the browser went offline.
 */
interface Listen {
  'note:created': (text: string) => void;
}
interface Emit {
  'note:add': (text: string, ack?: (result: { ok: boolean; length: number }) => void) => void;
  'note:seen': (text: string) => void;
  /** The server never acks it. */
  'note:drop': (text: string, ack?: (result: { ok: boolean }) => void) => void;
}

const browser = new EventTarget();
const globals = ['WebSocket', 'addEventListener', 'removeEventListener'] as const;
const before = globals.map((name) => Object.getOwnPropertyDescriptor(globalThis, name));
beforeAll(() => {
  Object.assign(globalThis, {
    WebSocket,
    addEventListener: browser.addEventListener.bind(browser),
    removeEventListener: browser.removeEventListener.bind(browser),
  });
});
// Test files share a worker (vitest.config: isolate false): the globals go back as they were.
afterAll(() => {
  globals.forEach((name, index) => {
    const descriptor = before[index];
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else delete (globalThis as Record<string, unknown>)[name];
  });
});

const WAIT = { timeout: 8_000 } as const;
const opened: { http: HttpServer; io: Server }[] = [];
const clients: SocketClient<Listen, Emit>[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const { http, io } of opened.splice(0)) {
    await io.close();
    http.closeAllConnections();
  }
});

/** A Socket.IO server with a `/widget` namespace that takes the token `good`, on `port` (0: any). */
async function serve(port = 0) {
  const http = createServer();
  const io = new Server(http, {
    transports: ['websocket'],
    connectionStateRecovery: { maxDisconnectionDuration: 60_000 },
  });
  const seen: string[] = [];
  const sockets: Socket[] = [];
  const widget = io.of('/widget');
  widget.use((socket, next) => {
    if (socket.handshake.auth['token'] === 'good') return next();
    next(Object.assign(new Error('unauthorized'), { data: { code: 'unauthorized' } }));
  });
  widget.on('connection', (socket) => {
    sockets.push(socket);
    socket.on('note:add', (text: string, ack: (result: unknown) => void) => ack({ ok: true, length: text.length }));
    socket.on('note:seen', (text: string) => seen.push(text));
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  opened.push({ http, io });
  return { io, widget, seen, sockets, origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}/` };
}

function connect(origin: string, tokens: string[] = ['good']) {
  const asked: string[] = [];
  const events: string[] = [];
  const client = new SocketClient<Listen, Emit>(origin, '/widget', (send) => {
    const token = tokens[Math.min(asked.length, tokens.length - 1)]!;
    asked.push(token);
    setTimeout(() => send({ token }), 5);
  });
  clients.push(client);
  client.on('connect', () => events.push('connect'));
  client.on('disconnect', (reason) => events.push(`disconnect:${reason}`));
  client.on('connect_error', (error) => events.push(`connect_error:${error.message}`));
  client.on('note:created', (text) => events.push(`note:${text}`));
  return { client, asked, events };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT.timeout;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("the widget's Socket.IO client", () => {
  it('joins the namespace with the auth it asks for, takes events, and gets acks for what it sends', async () => {
    const server = await serve();
    const { client, events } = connect(server.origin);
    // Sent before the connection is made: it waits for it.
    client.emit('note:seen', 'early');
    await until(() => client.connected, 'connect');
    expect(client.id).toBe(server.sockets[0]!.id);
    server.widget.emit('note:created', 'hello, "world" — ٣ 日本');
    const result = await new Promise((resolve) => client.emit('note:add', 'four', resolve));
    expect(result).toEqual({ ok: true, length: 4 });
    await until(() => events.some((event) => event.startsWith('note:')), 'the event');
    expect(events).toEqual(['connect', 'note:hello, "world" — ٣ 日本']);
    await until(() => server.seen.length > 0, 'the early emit');
    expect(server.seen).toEqual(['early']);
  });

  it('gives an ack as a promise, rejects it after the timeout, and stops calling a listener taken off', async () => {
    const server = await serve();
    const { client, events } = connect(server.origin);
    await until(() => client.connected, 'connect');
    expect(await client.timeout(2_000).emitWithAck('note:add', 'seven!!')).toEqual({ ok: true, length: 7 });
    await expect(client.timeout(200).emitWithAck('note:drop', 'x')).rejects.toThrow('operation has timed out');
    const heard: string[] = [];
    const listener = (text: string) => heard.push(text);
    client.on('note:created', listener);
    server.widget.emit('note:created', 'a');
    await until(() => heard.length === 1, 'the first event');
    client.off('note:created', listener);
    server.widget.emit('note:created', 'b');
    await until(() => events.includes('note:b'), 'the second event');
    expect(heard).toEqual(['a']);
  });

  it('says connect_error with the refusal and its data, and does not try again', async () => {
    const server = await serve();
    const { client, asked } = connect(server.origin, ['bad']);
    const refusal = await new Promise<Error & { data?: unknown }>((resolve) => client.on('connect_error', resolve));
    expect(refusal.message).toBe('unauthorized');
    expect(refusal.data).toEqual({ code: 'unauthorized' });
    await new Promise((resolve) => setTimeout(resolve, 1_800));
    expect(asked).toEqual(['bad']);
    expect(client.connected).toBe(false);
  });

  it('reconnects after the transport closes, asks for the auth again, and is given what it missed', async () => {
    const server = await serve();
    const { client, asked, events } = connect(server.origin);
    await until(() => client.connected, 'connect');
    server.widget.emit('note:created', 'one');
    await until(() => events.includes('note:one'), 'the first event');
    server.sockets[0]!.conn.close();
    await until(() => events.includes('disconnect:transport close'), 'the disconnect');
    // Missed while away: the server keeps it for the recovered connection.
    server.widget.emit('note:created', 'two');
    await until(() => events.filter((event) => event === 'connect').length === 2, 'the reconnect');
    await until(() => events.includes('note:two'), 'the missed event');
    expect(client.recovered).toBe(true);
    expect(asked).toEqual(['good', 'good']);
  });

  it('tries again while the server is down, with connect_error each time, and connects once it is back', async () => {
    const first = await serve();
    const port = Number(new URL(first.origin).port);
    const { client, events } = connect(first.origin);
    await until(() => client.connected, 'connect');
    await first.io.close();
    await until(() => events.includes('disconnect:transport close'), 'the disconnect');
    await until(() => events.some((event) => event.startsWith('connect_error:')), 'a failed try');
    await serve(port);
    await until(() => client.connected, 'the reconnect');
    expect(events.filter((event) => event === 'connect')).toHaveLength(2);
  });

  it("leaves it to the widget to come back after the server's disconnect", async () => {
    const server = await serve();
    const { client, events } = connect(server.origin);
    await until(() => client.connected, 'connect');
    server.sockets[0]!.disconnect();
    await until(() => events.includes('disconnect:io server disconnect'), 'the disconnect');
    await new Promise((resolve) => setTimeout(resolve, 1_800));
    expect(client.connected).toBe(false);
    client.connect();
    await until(() => client.connected, 'the connect');
  });

  it('closes when the browser goes offline and connects again', async () => {
    const server = await serve();
    const { client, events } = connect(server.origin);
    await until(() => client.connected, 'connect');
    browser.dispatchEvent(new Event('offline'));
    expect(events).toContain('disconnect:transport close');
    await until(() => client.connected, 'the reconnect');
  });

  it('says goodbye on close and stays closed', async () => {
    const server = await serve();
    const { client, events } = connect(server.origin);
    await until(() => client.connected, 'connect');
    const left = new Promise<string>((resolve) => server.sockets[0]!.on('disconnect', resolve));
    client.close();
    expect(await left).toBe('client namespace disconnect');
    expect(events.at(-1)).toBe('disconnect:io client disconnect');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(server.sockets).toHaveLength(1);
  });
});
