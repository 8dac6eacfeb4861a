import type { IncomingMessage } from 'node:http';

/**
 * The address a request really came from. Without trusted proxies it is the socket's peer. With
 * `trustedHops` proxies in front (each appending to X-Forwarded-For), it is the entry that many
 * places from the right: entries further left were written by the client and prove nothing, so a
 * spoofed X-Forwarded-For changes nothing. When the header is shorter than the chain, the peer is used.
 */
export function clientAddress(request: Pick<IncomingMessage, 'headers' | 'socket'>, trustedHops: number): string {
  const peer = normalise(request.socket.remoteAddress ?? 'unknown');
  if (trustedHops <= 0) return peer;
  const header = request.headers['x-forwarded-for'];
  const entries = (Array.isArray(header) ? header.join(',') : header ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chosen = entries[entries.length - trustedHops];
  return chosen ? normalise(chosen) : peer;
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are one client. */
function normalise(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
