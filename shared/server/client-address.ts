import type { IncomingMessage } from 'node:http';
import { ipv4Of, ipv6Groups } from './ip-address.ts';

/**
 * The address a request really came from. Without trusted proxies it is the socket's peer. With
 * `trustedHops` proxies in front (each appending to X-Forwarded-For), it is the entry that many
 * places from the right: entries further left were written by the client and prove nothing, so a
 * spoofed X-Forwarded-For changes nothing. When the header is shorter than the chain, the peer is used.
 * This is the address to record (the audit log); a limit counts `clientLimitKey` instead.
 */
export function clientAddress(request: Pick<IncomingMessage, 'headers' | 'socket'>, trustedHops: number): string {
  const peer = normalise(request.socket.remoteAddress ?? 'unknown');
  if (trustedHops <= 0) return peer;
  const header = request.headers['x-forwarded-for'];
  const entries = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chosen = entries[entries.length - trustedHops];
  return chosen ? normalise(chosen) : peer;
}

/**
 * The key a per-address limit counts a request under: `limitKeyOf(clientAddress(...))`.
 *
 * @example await siteKeyLimiter.consume(clientLimitKey(ctx.req, trustProxyHops), now())
 */
export function clientLimitKey(request: Pick<IncomingMessage, 'headers' | 'socket'>, trustedHops: number): string {
  return limitKeyOf(clientAddress(request, trustedHops));
}

/**
 * The client an address stands for, for limits: an IPv4 address as it is, an IPv6 address as its
 * /64. A /64 is the smallest block a network is given (RFC 6177, RFC 7421), and whoever holds one
 * may use any of its 2^64 addresses (RFC 8981 makes new ones on purpose), so a limit per IPv6
 * address is no limit at all (issue 12).
 *
 * @example limitKeyOf('2001:db8:1:2:aaaa::1') // '2001:db8:1:2::/64'
 * @example limitKeyOf('::ffff:203.0.113.7') // '203.0.113.7'
 */
export function limitKeyOf(address: string): string {
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (isMapped(groups)) return ipv4Of(groups[6]!, groups[7]!);
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** `::ffff:127.0.0.1`, `::ffff:7f00:1` and `127.0.0.1` are one client. */
function normalise(address: string): string {
  const groups = ipv6Groups(address);
  return groups && isMapped(groups) ? ipv4Of(groups[6]!, groups[7]!) : address;
}

/** An IPv4-mapped IPv6 address (`::ffff:0:0/96`, RFC 4291 §2.5.5.2). */
const isMapped = (groups: number[]) => groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
