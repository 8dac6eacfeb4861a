import { io, type Socket } from 'socket.io-client';
import { DESK_NAMESPACE, type Ack, type CallEnded, type CallRinging } from '../../shared/index.ts';

/**
 * The two sides of person calls as tests drive them: a command with its ack, and a console's
 * `/desk` socket that keeps what it hears (rings, ends, signalling), as the console's CallDock does.
 */
export const emit = <T>(socket: Socket, event: string, payload: unknown): Promise<Ack<T>> =>
  new Promise((resolve) => socket.emit(event, payload, resolve));

/** Keeps every `event` the socket hears, in order. */
export function heard<T>(socket: Socket, event: string): T[] {
  const kept: T[] = [];
  socket.on(event, (payload: T) => kept.push(payload));
  return kept;
}

export interface ConsoleSocket {
  socket: Socket;
  rings: CallRinging[];
  ended: CallEnded[];
  signalled: unknown[];
}

/** A person's `/desk` socket on a node (WebSocket, no reconnection), connected. The caller closes it. */
export async function connectConsole(bffUrl: string, token: string, accountId: number): Promise<ConsoleSocket> {
  const socket = io(bffUrl + DESK_NAMESPACE, {
    auth: { token, account_id: accountId },
    transports: ['websocket'],
    reconnection: false,
  });
  const kept = {
    socket,
    rings: heard<CallRinging>(socket, 'call:ringing'),
    ended: heard<CallEnded>(socket, 'call:ended'),
    signalled: heard<unknown>(socket, 'call:signalled'),
  };
  await new Promise((resolve, reject) => socket.once('connect', () => resolve(null)).once('connect_error', reject));
  return kept;
}
