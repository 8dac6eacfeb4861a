import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Server as SocketServer } from 'socket.io';
import { WebSocketServer } from 'ws';
import type { Logger, SecretBox, Sql } from '../../shared/server/index.ts';
import type { CustomerErasure } from '../engine-link/customer-erasure.ts';
import type { Publisher } from '../realtime/publisher.ts';
import { serveCableConnection, type CableConnection } from './cable-connection.ts';
import { createCableRelay } from './cable-relay.ts';
import { pushContactEvents } from './contact-pushes.ts';
import { ContactStreams } from './contact-streams.ts';
import { pushPersonEvents } from './person-pushes.ts';
import { PersonStreams } from './person-streams.ts';
import { CABLE_LIMITS, CABLE_PATH, CABLE_SUBPROTOCOL, PING_INTERVAL_MS, pingFrame } from './protocol.ts';

export interface CableDeps {
  sql: Sql;
  /** Finds a contact by its pubsub_token's keyed hash and opens its capabilities (issue 33). */
  secrets: SecretBox;
  publisher: Publisher;
  logger: Logger;
  publicUrl?: string | undefined;
  /** The BFF's Socket.IO server, whose adapter carries pushes between nodes. */
  io: SocketServer;
  /** Whether nodes share Redis (REDIS_URL): then every node hears every push. */
  shared: boolean;
  /** Whether the shared Redis answers now (its adapter drops a failed publish as an unhandled rejection). */
  sharedReachable?: (() => boolean) | undefined;
  erasure: Pick<CustomerErasure, 'onErased'>;
  accountClosed: { listen(listener: (closed: { inboxIds: string[] }) => void): void };
  now?: () => Date;
}

export interface Cable {
  /** Open `/cable` connections on this node. */
  connected(): number;
  /** Tells every client the server restarts (they reconnect elsewhere) and closes. */
  close(): Promise<void>;
}

/**
 * ActionCable at `/cable`, for Chatwoot's own clients (its widget, its mobile SDKs, clients of the
 * Client API with a `pubsub_token`): the same events as the `/client` Socket.IO namespace, in
 * ActionCable's frames; and for a person (their pubsub_token with account_id and user_id) the
 * events of the inboxes they answer, private notes included. Erased contacts and the contacts of closed accounts are disconnected on
 * every node.
 */
export function attachCable(server: HttpServer, deps: CableDeps): Cable {
  const { sql, secrets, logger, io, shared, now = () => new Date() } = deps;
  const streams = new ContactStreams();
  const people = new PersonStreams();
  const connections = new Set<CableConnection>();
  const reachable = deps.sharedReachable ?? (() => shared);
  const relay = createCableRelay(io, { shared, reachable, logger }, (notice) => {
    if (notice.kind === 'events') streams.deliver(notice.contactId, notice.events);
    else if (notice.kind === 'people') people.deliver(notice.accountId, notice.inboxId, notice.events);
    else {
      streams.end(notice);
      people.end(notice.inboxIds);
    }
  });
  pushContactEvents({
    sql,
    secrets,
    publisher: deps.publisher,
    logger,
    publicUrl: deps.publicUrl ?? '',
    relay,
    mayHear: (contactId) => shared || streams.count(contactId) > 0,
  });
  pushPersonEvents({ sql, publisher: deps.publisher, logger, now, relay, mayHear: () => shared || people.any() });
  deps.erasure.onErased((erased) => relay.tell({ kind: 'end', contactIds: erased.contactIds, inboxIds: [] }));
  deps.accountClosed.listen(({ inboxIds }) => relay.tell({ kind: 'end', contactIds: [], inboxIds }));

  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: CABLE_LIMITS.maxFrameBytes,
    handleProtocols: (offered) => (offered.has(CABLE_SUBPROTOCOL) ? CABLE_SUBPROTOCOL : false),
  });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://cable').pathname !== CABLE_PATH) return;
    if (!protocolAccepted(request)) {
      socket.end(
        'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\nunsupported_protocol',
      );
      return;
    }
    sockets.handleUpgrade(request, socket, head, (webSocket) => {
      const connection = serveCableConnection(webSocket, request.headers.origin, {
        sql,
        secrets,
        streams,
        people,
        logger,
        now,
      });
      connections.add(connection);
      webSocket.on('close', () => connections.delete(connection));
    });
  };
  server.on('upgrade', onUpgrade);
  const beat = setInterval(() => {
    const frame = pingFrame(Date.now());
    for (const connection of connections) connection.send(frame);
  }, PING_INTERVAL_MS);
  beat.unref();

  return {
    connected: () => connections.size,
    async close() {
      clearInterval(beat);
      server.off('upgrade', onUpgrade);
      for (const connection of connections) connection.disconnect('server_restart', true);
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
    },
  };
}

/**
 * A client offering subprotocols must offer ActionCable's JSON one. A client offering none is
 * served with it: Chatwoot's Flutter SDK opens its socket so (as Rails serves it).
 */
function protocolAccepted(request: IncomingMessage): boolean {
  const header = request.headers['sec-websocket-protocol'];
  if (!header) return true;
  return header.split(',').some((offered) => offered.trim() === CABLE_SUBPROTOCOL);
}
