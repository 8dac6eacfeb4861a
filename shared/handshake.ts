import type { ErrorCode } from './errors.ts';

/**
 * Why a socket's handshake was refused. Socket.IO gives the client the `data` of the Error the
 * server's middleware passed to `next`, so the refusal travels as a code of the closed union, not
 * as words to match. Zod-free: the widget and the console read it.
 */
export interface HandshakeRefusal {
  code: ErrorCode;
}

/**
 * The code of a refused handshake (`connect_error`), or undefined for any other failure (the
 * network, a timeout).
 *
 * @example socket.on('connect_error', (error) => { if (refusalCode(error) === 'unauthorized') signOut(); });
 */
export function refusalCode(error: unknown): ErrorCode | undefined {
  const data = (error as { data?: unknown } | null)?.data;
  const code = typeof data === 'object' && data !== null ? (data as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? (code as ErrorCode) : undefined;
}

/**
 * The Error a socket middleware passes to `next` to refuse a handshake: its message for people,
 * its `data` for programs.
 *
 * @example next(handshakeRefusal('unauthorized', 'The session could not be checked.'));
 */
export function handshakeRefusal(code: ErrorCode, message: string): Error & { data: HandshakeRefusal } {
  return Object.assign(new Error(`${code}: ${message}`), { data: { code } });
}
