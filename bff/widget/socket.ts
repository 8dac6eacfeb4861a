import { handshakeRefusal } from '../../shared/handshake.ts';
import type { Namespace, Server, Socket } from 'socket.io';
import type { z } from 'zod';
import {
  ParleyError,
  ReadCommand,
  TypingCommand,
  WIDGET_NAMESPACE,
  type Ack,
  type WidgetClientEvents,
  type WidgetServerEvents,
} from '../../shared/index.ts';
import { clientLimitKey, parseWith, toParleyError, type Logger, type Sql } from '../../shared/server/index.ts';
import type { ConversationService } from './conversation-service.ts';
import { assertSessionOrigin } from './origins.ts';
import type { ChangeBatch, Publisher } from '../realtime/publisher.ts';
import type { Session, WidgetSessions } from './sessions.ts';

/** Every tab of one customer joins this room. */
export const customerRoom = (inboxId: string, customerRef: string): string => `customer:${inboxId}:${customerRef}`;
/** Every tab of every customer of one inbox joins this room (closed at once when its account is suspended or deleted). */
export const widgetInboxRoom = (inboxId: string): string => `inbox:${inboxId}`;

interface SocketData {
  session: Session;
}

type WidgetNamespace = Namespace<WidgetClientEvents, WidgetServerEvents, Record<string, never>, SocketData>;
type WidgetSocket = Socket<WidgetClientEvents, WidgetServerEvents, Record<string, never>, SocketData>;

export interface WidgetSocketDeps {
  sql: Sql;
  sessions: WidgetSessions;
  conversations: ConversationService;
  publisher: Publisher;
  logger: Logger;
  /** Counts a customer's commands with the widget routes' limit. */
  consumeCommand: (session: Session) => Promise<void>;
  /** How many proxies in front append to X-Forwarded-For (for the per-address cap). */
  trustProxyHops: number;
  /** Open sockets one client address may hold on this node; SOCKETS_PER_ADDRESS unless a bench lifts it. */
  socketsPerAddress?: number | undefined;
}

/** Open sockets one session may hold on one node (its tabs); one more is refused. */
export const SOCKETS_PER_SESSION = 20;
/** Open sockets one client address may hold on one node (a household or an office behind one address). */
export const SOCKETS_PER_ADDRESS = 200;
/**
 * How often this node closes the sockets whose token expired. One sweep for all of them, not a
 * timer per socket: a timer per socket (and its own timer list, as every delay differs) cost about 0.4 KB of heap each (issue 34).
 */
export const EXPIRY_SWEEP_MS = 1_000;

const sessionRoom = (jti: string) => `session:${jti}`;
const addressKey = (socket: WidgetSocket, trustProxyHops: number) =>
  `address:${clientLimitKey(socket.request, trustProxyHops)}`;

/** Open sockets per session and per address on this node, for the caps. */
type OpenSockets = Map<string, number>;

function countOpen(open: OpenSockets, key: string, by: number): void {
  const next = (open.get(key) ?? 0) + by;
  if (next > 0) open.set(key, next);
  else open.delete(key);
}

/**
 * The `/widget` namespace: authenticated by the `wst_` token in `auth` (live sessions also by
 * their Origin), with the commands `typing:set` and `read:mark` (validated with the zod schemas of
 * `shared/schemas/socket.ts`, answered through acks with the same error codes as HTTP), and the
 * pushes of every committed change to the customer's tabs. Messages are sent over HTTP.
 */
export function addWidgetSocket(io: Server, deps: WidgetSocketDeps): void {
  const widget = io.of(WIDGET_NAMESPACE) as unknown as WidgetNamespace;
  const open: OpenSockets = new Map();

  // A revoked token's sockets close at once, on every node (the adapter carries it across).
  deps.sessions.onRevoke((jti) => widget.in(sessionRoom(jti)).disconnectSockets(true));
  // ...and an ended identity's, whichever of its tokens they opened with (issue 33).
  deps.sessions.onIdentityEnd(({ inboxId, customerRef }) =>
    widget.in(customerRoom(inboxId, customerRef)).disconnectSockets(true),
  );

  widget.use((socket, next) => {
    authenticate(socket, open, deps).then(
      () => next(),
      (error: unknown) => {
        const refusal =
          error instanceof ParleyError ? error : new ParleyError('unauthorized', 'The session could not be checked.');
        next(handshakeRefusal(refusal.code, refusal.message));
      },
    );
  });

  widget.on('connection', (socket) => serveSocket(socket, open, deps));

  // The token is checked at the handshake; once it expired the socket closes within a sweep (the
  // widget reconnects with its renewed token); a revoked one is closed through its room at once.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const socket of widget.sockets.values())
      if (socket.data.session.expiresAt.getTime() <= now) socket.disconnect(true);
  }, EXPIRY_SWEEP_MS);
  sweep.unref();
  io.httpServer.once('close', () => clearInterval(sweep));

  deps.publisher.subscribe((batch) => pushChanges(widget, batch));
}

async function authenticate(
  socket: WidgetSocket,
  open: OpenSockets,
  { sql, sessions, trustProxyHops, socketsPerAddress = SOCKETS_PER_ADDRESS }: WidgetSocketDeps,
): Promise<void> {
  const token = (socket.handshake.auth as { token?: unknown }).token;
  if (typeof token !== 'string' || !token)
    throw new ParleyError('unauthorized', 'Send the session token as auth.token.');
  const session = await sessions.verify(token);
  const { origin, host } = socket.handshake.headers;
  const protocol = (socket.request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  await assertSessionOrigin(sql, session, origin ?? '', `${protocol}://${host ?? ''}`);
  if ((open.get(sessionRoom(session.jti)) ?? 0) >= SOCKETS_PER_SESSION)
    throw new ParleyError('rate_limited', `At most ${SOCKETS_PER_SESSION} open connections per session.`);
  if ((open.get(addressKey(socket, trustProxyHops)) ?? 0) >= socketsPerAddress)
    throw new ParleyError('rate_limited', `At most ${socketsPerAddress} open connections per address.`);
  socket.data.session = session;
}

/**
 * A connected tab: its rooms, its count against the caps and its commands.
 * Everything here happens before the first await: the client may send a command the moment it
 * sees `connect`, and a push may follow at once. The customer's room carries every event of all
 * their conversations.
 */
function serveSocket(socket: WidgetSocket, open: OpenSockets, deps: WidgetSocketDeps): void {
  const { conversations, trustProxyHops } = deps;
  const { session } = socket.data;
  if (!socket.recovered)
    void socket.join([
      customerRoom(session.inboxId, session.customerRef),
      sessionRoom(session.jti),
      widgetInboxRoom(session.inboxId),
    ]);
  const keys = [sessionRoom(session.jti), addressKey(socket, trustProxyHops)];
  for (const key of keys) countOpen(open, key, 1);
  socket.on('disconnect', () => {
    for (const key of keys) countOpen(open, key, -1);
  });
  socket.on('typing:set', (payload) => {
    void command(socket, deps, TypingCommand, payload, undefined, (typing) =>
      conversations.setTyping(session, typing.conversation_id, typing.typing),
    );
  });
  socket.on('read:mark', (payload, ack) => {
    void command(socket, deps, ReadCommand, payload, ack, async (read) => {
      const state = await conversations.markRead(session, read.conversation_id, read.last_read_id);
      return { last_read_id: state.last_read_id, unread: state.unread };
    });
  });
}

/** Runs a client command; answers its ack (when it gave a function) with the result or an error code. */
async function command<S extends z.ZodType, T>(
  socket: WidgetSocket,
  { consumeCommand, logger }: Pick<WidgetSocketDeps, 'consumeCommand' | 'logger'>,
  schema: S,
  payload: unknown,
  ack: unknown,
  run: (input: z.output<S>) => Promise<T>,
): Promise<void> {
  const reply = typeof ack === 'function' ? (ack as (result: Ack<T>) => void) : undefined;
  try {
    await consumeCommand(socket.data.session);
    // Run first: `reply?.(…)` would not evaluate its argument when the client gave no ack.
    const data = await run(parseWith(schema, payload, 'payload'));
    reply?.({ ok: true, data });
  } catch (caught) {
    const error = toParleyError(caught);
    if (error.code === 'internal') logger.error({ err: caught }, 'a socket command failed');
    reply?.({ ok: false, error: { code: error.code, message: error.message } });
  }
}

/** Pushes one committed batch of a conversation's changes to the customer's tabs. */
function pushChanges(widget: WidgetNamespace, { conversation, changes, exceptSocket }: ChangeBatch): void {
  const room = widget.to(customerRoom(conversation.inboxId, conversation.customerRef));
  // Every socket is in a room of its own id: the tab that sent the message has it from its request.
  const to = exceptSocket ? room.except(exceptSocket) : room;
  const conversation_id = conversation.uuid;
  // The widget stops a typing indicator when an answer or a notice arrives: a "stopped" in the same batch is not sent.
  const answered = changes.some((change) => change.type === 'message.created' && change.message.author !== 'customer');
  // The AI's answer says by itself that the messages before it arrived: the widget shows them
  // "Delivered" then (it says "Read" only for a person, delivery.ts), so their "read" is not pushed.
  const answeredByAi = changes.some((change) => change.type === 'message.created' && change.message.author === 'ai');
  for (const change of changes) {
    switch (change.type) {
      case 'message.created':
        to.emit('message:created', change.message);
        break;
      case 'reply.delta':
        to.emit('message:delta', { conversation_id, text: change.text });
        break;
      case 'message.status':
        if (answeredByAi && change.status === 'read') break;
        to.emit('message:updated', { id: change.messageId, conversation_id, status: change.status });
        break;
      case 'typing':
        if (change.typing || !answered)
          to.emit('typing:changed', { conversation_id, who: change.who, typing: change.typing });
        break;
      case 'handed_over':
        to.emit('conversation:handed_over', { conversation_id });
        break;
      case 'handed_back':
        to.emit('conversation:handed_back', { conversation_id });
        break;
      case 'closed':
        to.emit('conversation:closed', { conversation_id, resolved: change.resolved });
        break;
      case 'reopened':
        to.emit('conversation:reopened', { conversation_id });
        break;
      default:
        // The customer's own typing and reads are for the people answering; the widget shows its
        // own survey form and keeps answers in its own state; assignments and snoozes are the people's.
        break;
    }
  }
}
