// The widget takes values only from zod-free modules of shared/, and types from anywhere.
import { WIDGET_NAMESPACE, type WidgetClientEvents, type WidgetServerEvents } from '../../../shared/socket-events.ts';
import type { Sessions } from './session.ts';
import { SocketClient } from './socket-client.ts';

export type WidgetSocket = SocketClient<WidgetServerEvents, WidgetClientEvents>;

/** The one socket of the chat to the BFF's `/widget` namespace; what it listens to is live-updates.ts's. */
export interface Connection {
  /** The socket, connected or trying to be; none before the chat started or after it was reset. */
  socket(): WidgetSocket | undefined;
  /** Closes the socket there is and opens a new one with the session's token. */
  open(token: string): WidgetSocket;
  close(): void;
}

export function createConnection(baseUrl: string, sessions: Sessions): Connection {
  let socket: WidgetSocket | undefined;
  return {
    socket: () => socket,
    open(token) {
      socket?.close();
      // The token is asked for at every (re)connect: the server closes a socket whose token expired.
      const auth = (send: (data: object) => void) =>
        void sessions.ensure().then(
          (session) => send({ token: session.token }),
          () => send({ token }),
        );
      return (socket = new SocketClient(baseUrl, WIDGET_NAMESPACE, auth));
    },
    close() {
      socket?.close();
      socket = undefined;
    },
  };
}
