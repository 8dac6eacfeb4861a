import type { Server as HttpServer } from 'node:http';
import { Server, type ServerOptions } from 'socket.io';

/**
 * The BFF's one Socket.IO server, on the HTTP server that serves the app. Its namespaces (the
 * widget's, the Client API's) are added by their routes. Connection-state recovery is on; with
 * several nodes `adapter` shares the rooms (Redis streams).
 */
export function createSocketServer(server: HttpServer, adapter?: ServerOptions['adapter']): Server {
  const io = new Server(server, {
    serveClient: false,
    // The widget is embedded on other sites' pages; who may connect is decided by each namespace's
    // handshake (the token, and the Origin for live sessions).
    cors: { origin: true, credentials: false },
    connectionStateRecovery: { maxDisconnectionDuration: 2 * 60_000, skipMiddlewares: false },
    // Room for the longest message (150,000 characters) and its envelope.
    maxHttpBufferSize: 512 * 1024,
    ...(adapter ? { adapter } : {}),
  });
  // Socket.IO's own HTTP answers (the polling transport, its refusals) bypass Koa: put nosniff on
  // before anyone answers (a header set now joins whatever writeHead sends later).
  server.prependListener('request', (request, response) => {
    if (request.url?.startsWith('/socket.io/')) response.setHeader('X-Content-Type-Options', 'nosniff');
  });
  // Every namespace decides who may connect; the main one serves no one.
  io.of('/').use((_socket, next) =>
    next(
      Object.assign(new Error('unauthorized: connect to /widget, /client or /desk'), {
        data: { code: 'unauthorized' },
      }),
    ),
  );
  return io;
}
