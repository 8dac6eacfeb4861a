import type { Server as HttpServer } from 'node:http';
import { Server, type Namespace, type ServerOptions, type Socket } from 'socket.io';
import { z } from 'zod';
import {
  ClientMessageId,
  MessageText,
  ParleyError,
  WIDGET_NAMESPACE,
  type Ack,
  type MessageUpdate,
  type TypingChange,
  type WidgetClientEvents,
  type WidgetMessage,
  type WidgetServerEvents,
} from '../shared/index.ts';
import { parseWith, type Logger, type Sql } from '../shared/server/index.ts';
import type { ConversationService } from './conversation-service.ts';
import { assertSessionOrigin } from './origins.ts';
import type { Session, WidgetSessions } from './sessions.ts';
import type { ConversationRecord } from './store/conversations.ts';

/** Tells connected widgets what changed. Services call it after their transaction commits. */
export interface Publisher {
  messageCreated(conversation: ConversationRecord, message: WidgetMessage): void;
  messageUpdated(conversation: ConversationRecord, update: MessageUpdate): void;
  typingChanged(conversation: ConversationRecord, change: Omit<TypingChange, 'conversation_id'>): void;
  /** The customer is typing: for the people who answer the inbox (the agent console), not the customer's tabs. */
  customerTyping(conversation: ConversationRecord, typing: boolean): void;
  /** The customer has read up to a message: a read receipt for the people who answer. */
  customerRead(conversation: ConversationRecord, lastReadId: number): void;
  handedOver(conversation: ConversationRecord): void;
  handedBack(conversation: ConversationRecord): void;
  closed(conversation: ConversationRecord, resolved: boolean): void;
  /** A resolve asked for a rating with this survey question. */
  surveyAsked(conversation: ConversationRecord, question: WidgetMessage): void;
  /** An interactive message (choices, the survey question) got its answer. */
  messageAnswered(conversation: ConversationRecord, messageId: number): void;
}

/** Every tab of one customer joins this room. */
export const customerRoom = (inboxId: string, customerRef: string): string => `customer:${inboxId}:${customerRef}`;
/** The people who answer an inbox (the agent console's sockets) join this room. */
export const agentsRoom = (inboxId: string): string => `agents:${inboxId}`;
/** Everyone following one conversation joins this room: the customer's tabs now, agents later. */
export const conversationRoom = (uuid: string): string => `conversation:${uuid}`;

interface SocketData {
  session: Session;
}

type WidgetNamespace = Namespace<WidgetClientEvents, WidgetServerEvents, Record<string, never>, SocketData>;
type WidgetSocket = Socket<WidgetClientEvents, WidgetServerEvents, Record<string, never>, SocketData>;

const ConversationRef = z.string().max(100);
const SendPayload = z.strictObject({ conversation_id: ConversationRef, text: MessageText, message_id: ClientMessageId });
const TypingPayload = z.strictObject({ conversation_id: ConversationRef, typing: z.boolean() });
const ReadPayload = z.strictObject({ conversation_id: ConversationRef, last_read_id: z.number().int().min(0) });

export interface RealtimeDeps {
  sql: Sql;
  sessions: WidgetSessions;
  logger: Logger;
  /** Commands from sockets go to the same service as the HTTP routes. Set once the service exists. */
  conversations?: ConversationService;
  /** Counts a customer's commands with the widget routes' limit. */
  consumeCommand?: (session: Session) => Promise<void>;
  /** Socket.IO's adapter for several nodes (Redis streams); in memory when left out. */
  adapter?: ServerOptions['adapter'];
}

/**
 * Socket.IO for the widget: the `/widget` namespace, authenticated by the `wst_` token in `auth`
 * (live sessions also by their Origin), with connection-state recovery. Every client payload is
 * validated; every command answers through its ack with the same error codes as HTTP.
 */
export class Realtime implements Publisher {
  #io: Server | undefined;
  #widget: WidgetNamespace | undefined;
  readonly #deps: RealtimeDeps;

  constructor(deps: RealtimeDeps) {
    this.#deps = deps;
  }

  set conversations(service: ConversationService) {
    this.#deps.conversations = service;
  }

  attach(server: HttpServer): Server {
    const io = new Server(server, {
      serveClient: false,
      // The widget is embedded on other sites' pages; who may connect is decided by the token (and
      // the Origin for live sessions) in the handshake below.
      cors: { origin: true, credentials: false },
      connectionStateRecovery: { maxDisconnectionDuration: 2 * 60_000, skipMiddlewares: false },
      // Room for the longest message (150,000 characters) and its envelope.
      maxHttpBufferSize: 512 * 1024,
      ...(this.#deps.adapter ? { adapter: this.#deps.adapter } : {}),
    });
    const widget = io.of(WIDGET_NAMESPACE) as unknown as WidgetNamespace;
    widget.use((socket, next) => {
      this.#authenticate(socket).then(
        () => next(),
        (error: unknown) => {
          const refusal = error instanceof ParleyError ? error : new ParleyError('unauthorized', 'The session could not be checked.');
          const failure = new Error(`${refusal.code}: ${refusal.message}`) as Error & { data?: unknown };
          failure.data = { code: refusal.code };
          next(failure);
        },
      );
    });
    widget.on('connection', (socket) => this.#connected(socket));
    this.#io = io;
    this.#widget = widget;
    return io;
  }

  async #authenticate(socket: WidgetSocket): Promise<void> {
    const token = (socket.handshake.auth as { token?: unknown }).token;
    if (typeof token !== 'string' || !token) throw new ParleyError('unauthorized', 'Send the session token as auth.token.');
    const session = await this.#deps.sessions.verify(token);
    const { origin, host } = socket.handshake.headers;
    const protocol = (socket.request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    await assertSessionOrigin(this.#deps.sql, session, origin ?? '', `${protocol}://${host ?? ''}`);
    socket.data.session = session;
  }

  /**
   * Everything here happens before the first await: the client may send a command the moment it
   * sees `connect`, and a push may follow at once. The customer's room carries every event of all
   * their conversations (conversation rooms are for the people answering).
   */
  #connected(socket: WidgetSocket): void {
    const { session } = socket.data;
    if (!socket.recovered) void socket.join(customerRoom(session.inboxId, session.customerRef));

    socket.on('message:send', (payload, ack) => {
      void this.#command(socket, ack, async () => {
        const message = parseWith(SendPayload, payload, 'payload');
        const { message: stored } = await this.#service().send(session, message.conversation_id, { text: message.text, message_id: message.message_id });
        return stored;
      });
    });
    socket.on('typing:set', (payload) => {
      void this.#command(socket, undefined, async () => {
        const typing = parseWith(TypingPayload, payload, 'payload');
        await this.#service().setTyping(session, typing.conversation_id, typing.typing);
        return undefined;
      });
    });
    socket.on('read:mark', (payload, ack) => {
      void this.#command(socket, ack, async () => {
        const read = parseWith(ReadPayload, payload, 'payload');
        const state = await this.#service().markRead(session, read.conversation_id, read.last_read_id);
        return { last_read_id: state.last_read_id, unread: state.unread };
      });
    });
  }

  #service(): ConversationService {
    if (!this.#deps.conversations) throw new Error('Realtime used before the conversation service was set');
    return this.#deps.conversations;
  }

  /** Runs a client command; answers its ack (when it gave a function) with the result or an error code. */
  async #command<T>(socket: WidgetSocket, ack: unknown, run: () => Promise<T>): Promise<void> {
    const reply = typeof ack === 'function' ? (ack as (result: Ack<T>) => void) : undefined;
    try {
      await this.#deps.consumeCommand?.(socket.data.session);
      const data = await run();
      reply?.({ ok: true, data });
    } catch (error) {
      if (error instanceof z.ZodError) {
        reply?.({ ok: false, error: { code: 'invalid_request', message: `The payload is not valid: ${error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}.` } });
      } else if (error instanceof ParleyError) {
        reply?.({ ok: false, error: { code: error.code, message: error.message } });
      } else {
        this.#deps.logger.error({ err: error }, 'a socket command failed');
        reply?.({ ok: false, error: { code: 'internal', message: 'Something went wrong on our side. It has been logged.' } });
      }
    }
  }

  #to(conversation: ConversationRecord) {
    return this.#widget?.to([conversationRoom(conversation.uuid), customerRoom(conversation.inboxId, conversation.customerRef)]);
  }

  messageCreated(conversation: ConversationRecord, message: WidgetMessage): void {
    this.#to(conversation)?.emit('message:created', message);
  }

  messageUpdated(conversation: ConversationRecord, update: MessageUpdate): void {
    this.#to(conversation)?.emit('message:updated', update);
  }

  typingChanged(conversation: ConversationRecord, change: Omit<TypingChange, 'conversation_id'>): void {
    this.#to(conversation)?.emit('typing:changed', { conversation_id: conversation.uuid, ...change });
  }

  customerTyping(conversation: ConversationRecord, typing: boolean): void {
    this.#io?.to(agentsRoom(conversation.inboxId)).emit('conversation:typing', { conversation_id: conversation.uuid, typing });
  }

  customerRead(conversation: ConversationRecord, lastReadId: number): void {
    this.#io?.to(agentsRoom(conversation.inboxId)).emit('conversation:read', { conversation_id: conversation.uuid, last_read_id: lastReadId });
  }

  handedOver(conversation: ConversationRecord): void {
    this.#to(conversation)?.emit('conversation:handed_over', { conversation_id: conversation.uuid });
  }

  handedBack(conversation: ConversationRecord): void {
    this.#to(conversation)?.emit('conversation:handed_back', { conversation_id: conversation.uuid });
  }

  closed(conversation: ConversationRecord, resolved: boolean): void {
    this.#to(conversation)?.emit('conversation:closed', { conversation_id: conversation.uuid, resolved });
  }

  surveyAsked(): void {
    // The widget shows its own survey form when it hears conversation:closed.
  }

  messageAnswered(): void {
    // The widget keeps the answer in its own state (the survey form, the message a choice sent).
  }

  async close(): Promise<void> {
    await this.#io?.close();
  }
}
