import type { WebSocket } from 'ws';
import type { Logger, Sql } from '../../shared/server/index.ts';
import type { ContactStream, ContactStreams } from './contact-streams.ts';
import {
  CABLE_LIMITS,
  CableAction,
  confirmFrame,
  disconnectFrame,
  eventFrame,
  parseCommand,
  parseJson,
  rejectFrame,
  welcomeFrame,
  type CableCommand,
  type DisconnectReason,
} from './protocol.ts';
import type { HeldSubscription } from './person-subscription.ts';
import { roomOf } from './room-channel.ts';
import { holdRoom, type RoomSubscriptionDeps } from './room-subscriptions.ts';

export type CableConnectionDeps = RoomSubscriptionDeps;

/** One open `/cable` connection, as the server holds it. */
export interface CableConnection {
  send(frame: string): void;
  disconnect(reason: DisconnectReason, reconnect: boolean): void;
}

/**
 * Serves one connection: `welcome` at once, then the client's commands. Subscriptions are by their
 * identifier string, echoed as received. Frames that are not commands are ignored, as Rails
 * ignores them, but they count towards the connection's commands; too many, and it is closed.
 */
export function serveCableConnection(
  socket: WebSocket,
  origin: string | undefined,
  deps: CableConnectionDeps,
): CableConnection {
  const { sql, streams, logger, now } = deps;
  const subscriptions = new Map<string, HeldSubscription>();
  const pending = new Set<string>();
  const overLimit = commandWindow();
  let closed = false;

  const send = (frame: string) => {
    if (!closed) socket.send(frame);
  };
  const disconnect = (reason: DisconnectReason, reconnect: boolean) => {
    send(disconnectFrame(reason, reconnect));
    socket.close();
  };
  // A connection that never holds a subscription has nothing to hear.
  const idle = setTimeout(() => {
    if (subscriptions.size === 0) disconnect('unauthorized', false);
  }, CABLE_LIMITS.idleWithoutSubscriptionMs);

  async function subscribe(identifier: string): Promise<void> {
    if (subscriptions.has(identifier) || pending.has(identifier)) return;
    if (subscriptions.size + pending.size >= CABLE_LIMITS.subscriptionsPerConnection)
      return send(rejectFrame(identifier));
    const room = roomOf(identifier);
    if (!room) return send(rejectFrame(identifier));
    pending.add(identifier);
    const write = (event: string, data: unknown) => send(eventFrame(identifier, event, data));
    const end = () => disconnect('unauthorized', false);
    const held = await holdRoom(deps, room, origin, write, end).catch((error: unknown) => {
      pending.delete(identifier);
      throw error;
    });
    // An unsubscribe that came meanwhile took it back.
    if (!pending.delete(identifier) || closed) return held?.remove();
    if (!held) return send(rejectFrame(identifier));
    subscriptions.set(identifier, held);
    send(confirmFrame(identifier));
    held.presence();
  }

  function unsubscribe(identifier: string): void {
    pending.delete(identifier);
    subscriptions.get(identifier)?.remove();
    subscriptions.delete(identifier);
  }

  socket.on('message', (data, isBinary) => {
    if (overLimit()) return disconnect('invalid_request', false);
    const command = isBinary ? undefined : parseCommand(data.toString());
    if (!command) return;
    if (command.command === 'subscribe')
      void subscribe(command.identifier).catch((error: unknown) => {
        logger.warn({ err: error }, 'a /cable subscription could not be decided');
        send(rejectFrame(command.identifier));
      });
    else if (command.command === 'unsubscribe') unsubscribe(command.identifier);
    else perform(subscriptions.get(command.identifier), command);
  });
  socket.on('close', () => {
    closed = true;
    clearTimeout(idle);
    for (const identifier of [...subscriptions.keys()]) unsubscribe(identifier);
  });
  socket.on('error', (error) => logger.debug({ err: error }, 'a /cable connection failed'));

  send(welcomeFrame());
  return { send, disconnect };
}

/** Counts a connection's frames: true once there are more in the window than it may send. */
function commandWindow(): () => boolean {
  let windowStart = Date.now();
  let commands = 0;
  return () => {
    const now = Date.now();
    if (now - windowStart >= CABLE_LIMITS.commandWindowMs) {
      windowStart = now;
      commands = 0;
    }
    return ++commands > CABLE_LIMITS.commandsPerWindow;
  };
}

/** A `message` command: RoomChannel's one action, `update_presence`, is answered with presence.update. */
function perform(subscribed: HeldSubscription | undefined, command: CableCommand): void {
  const data = typeof command.data === 'string' ? parseJson(command.data) : command.data;
  const action = CableAction.safeParse(data);
  // The Flutter SDK's start_typing / stop_typing are not RoomChannel's and go unanswered, as in Chatwoot.
  if (subscribed && action.success && action.data.action === 'update_presence') subscribed.presence();
}
