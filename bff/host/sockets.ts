import { customerPresence } from '../email/customer-presence.ts';
import type { CustomerConnected } from '../email/digest-sender.ts';
import type { Server as HttpServer } from 'node:http';
import type { Server as SocketServer } from 'socket.io';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { DESK_NAMESPACE, WIDGET_NAMESPACE } from '../../shared/index.ts';
import { forStreamsAdapter, type Redis, type SecretBox, type Signal } from '../../shared/server/index.ts';
import type { CustomerErasure } from '../engine-link/customer-erasure.ts';
import { addDeskSocket, deskRoomsOf } from '../helpdesk/desk-socket.ts';
import type { OnPresenceChanged } from '../helpdesk/presence-routes.ts';
import type { TokenHolder } from '../helpdesk/store/credentials.ts';
import type { DeskConversationService } from '../helpdesk/desk-conversation-service.ts';
import { addClientSocket, CLIENT_NAMESPACE, clientInboxRoom, contactRoom } from '../client-api/realtime.ts';
import { attachCable, type Cable } from '../cable/cable-server.ts';
import { createSocketServer } from '../realtime/socket-server.ts';
import { addCalls, type CallsDeps } from '../calls/calls.ts';
import type { CallLimits } from '../calls/call-sweep.ts';
import { pushInboxAvailability } from '../widget/availability-push.ts';
import { addWidgetSocket, customerRoom, widgetInboxRoom, type WidgetSocketDeps } from '../widget/socket.ts';

/** An account the operator suspended or deleted, with its inboxes. */
export interface ClosedAccount {
  accountId: number;
  inboxIds: string[];
}

/** Someone said whether they are available in an account. */
export type PresenceChange = Parameters<OnPresenceChanged>[0];

export interface BffSocketDeps extends WidgetSocketDeps {
  now: () => Date;
  publicUrl?: string | undefined;
  redis?: { client: Redis; prefix: string } | undefined;
  erasure: CustomerErasure;
  deskConversations: DeskConversationService;
  accountClosed: Signal<ClosedAccount>;
  accessChanged: Signal<TokenHolder>;
  /** Someone said whether they are available: the account's consoles hear of it. */
  presenceChanged: Signal<PresenceChange>;
  /** Finds Client API contacts by their pubsub_token's keyed hash and opens their capabilities. */
  secrets: SecretBox;
  /** Person calls: the engine's keys (its call begins and ends there) and the STUN/TURN URLs. */
  engines: CallsDeps['engines'];
  iceServers: string[];
  /** How long calls may last, and how long a node's hold on its sides lasts (CALL_LIMITS by default). */
  callLimits?: { [K in keyof CallLimits]?: CallLimits[K] | undefined };
}

export interface BffSockets {
  /** Attaches Socket.IO to the HTTP server: the widget's, the Client API's and the desk's namespaces. */
  attach(server: HttpServer): void;
  /** Connections to this node in one namespace (0 before `attach`). */
  connected(namespace: string): number;
  /** Whether a conversation's customer has the chat open now, on any node (false before `attach`). */
  customerConnected: CustomerConnected;
  close(): Promise<void>;
}

/**
 * The BFF's Socket.IO server, made when a host attaches it (its rooms in Redis when nodes share
 * one). Erased customers and the people of closed accounts are disconnected on every node, through
 * the adapter.
 */
export function createBffSockets(deps: BffSocketDeps): BffSockets {
  const { sql, sessions, conversations, publisher, logger, consumeCommand, trustProxyHops, now, redis } = deps;
  const { socketsPerAddress } = deps;
  let io: SocketServer | undefined;
  let cable: Cable | undefined;
  let calls: { close(): Promise<void> } | undefined;
  return {
    customerConnected: (conversation) => (io ? customerPresence(io)(conversation) : Promise.resolve(false)),
    attach(server) {
      io = createSocketServer(
        server,
        redis ? createAdapter(forStreamsAdapter(redis.client), { streamName: `${redis.prefix}socket.io` }) : undefined,
      );
      const widgetDeps = { sql, sessions, conversations, publisher, logger, consumeCommand, trustProxyHops };
      addWidgetSocket(io, { ...widgetDeps, socketsPerAddress });
      const { secrets } = deps;
      addClientSocket(io, { sql, secrets, publisher, logger, publicUrl: deps.publicUrl, trustProxyHops });
      // ActionCable at /cable for Chatwoot's own clients; its pushes travel through the same adapter.
      const { erasure, accountClosed, publicUrl } = deps;
      cable = attachCable(server, {
        sql,
        secrets,
        publisher,
        logger,
        publicUrl,
        io,
        shared: Boolean(redis),
        sharedReachable: () => redis?.client.isReady ?? false,
        erasure,
        accountClosed,
      });
      // A forgotten customer's widget tabs and Client API sockets close, on every node (through the adapter).
      deps.erasure.onErased((erased) => {
        for (const { inboxId, customerRef } of erased.customers)
          io!.of(WIDGET_NAMESPACE).in(customerRoom(inboxId, customerRef)).disconnectSockets(true);
        for (const contactId of erased.contactIds)
          io!.of(CLIENT_NAMESPACE).in(contactRoom(contactId)).disconnectSockets(true);
      });
      const desk = addDeskSocket(io, { sql, desk: deps.deskConversations, publisher, logger, now });
      deps.accessChanged.listen((holder) => void desk.accessChanged(holder));
      deps.presenceChanged.listen((change) => {
        const failed = (error: unknown) => logger.error({ err: error }, 'a presence push failed');
        desk.presenceChanged(change).catch(failed);
        pushInboxAvailability(io!, { sql, now, engines: deps.engines }, change).catch(failed);
      });
      const { engines, iceServers, deskConversations } = deps;
      calls = addCalls(io, {
        sql,
        now,
        logger,
        publisher,
        engines,
        desk: deskConversations,
        consumeCommand,
        iceServers,
        sessions,
        shared: redis ? { reachable: () => redis.client.isReady } : undefined,
        limits: deps.callLimits,
      });
      deps.accountClosed.listen(({ accountId, inboxIds }) => {
        // `in([])` would name every socket: an account without inboxes has no widget or contact to close.
        if (inboxIds.length > 0) {
          io!.of(WIDGET_NAMESPACE).in(inboxIds.map(widgetInboxRoom)).disconnectSockets(true);
          io!.of(CLIENT_NAMESPACE).in(inboxIds.map(clientInboxRoom)).disconnectSockets(true);
        }
        io!.of(DESK_NAMESPACE).in(deskRoomsOf(accountId, inboxIds)).disconnectSockets(true);
      });
    },
    connected: (namespace) => io?.of(namespace).sockets.size ?? 0,
    async close() {
      await cable?.close();
      await io?.close();
      // After the sockets: the calls of the sockets closed have begun to end.
      await calls?.close();
    },
  };
}
