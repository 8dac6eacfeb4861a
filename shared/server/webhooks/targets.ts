import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { Environment } from '../../environment.ts';
import { BlockList, isIP } from 'node:net';
import { ParleyError } from '../../errors.ts';
import { ipv4Of, ipv6Groups } from '../ip-address.ts';
import { isPrivateException, normalHostName, refusedHostName } from './endpoint-rules.ts';

/**
 * Where webhooks may go (SPEC "Webhook delivery", rule 1): live endpoints use https, sandbox ones
 * may use http, and private addresses are never called. The engine's webhooks and the helpdesk's
 * follow the same rules. The address is checked when the endpoint
 * is created and again on every connection, at the moment of connecting (a name that later
 * resolves to a private address is refused then, so DNS rebinding gains nothing).
 */

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  // IPv4-compatible addresses (::a.b.c.d), deprecated and never routed (RFC 4291 §2.5.5.1); holds :: and ::1.
  ['::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  // Site-local, deprecated but still routed inside some networks (RFC 3879).
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
  // Local-use NAT64: a network's own translator, to whatever IPv4 it is set up to reach (RFC 8215).
  ['64:ff9b:1::', 48],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/**
 * The IPv4 addresses an IPv6 address leads to: IPv4-mapped `::ffff:0:0/96` (RFC 4291), SIIT's
 * `::ffff:0:0:0/96` (RFC 2765), NAT64's `64:ff9b::/96` (RFC 6052), 6to4's `2002::/16` with the
 * IPv4 in bits 16–47 (RFC 3056), and Teredo's `2001::/32` with its server's IPv4 and its client's,
 * inverted (RFC 4380). Any of them private makes the IPv6 address private.
 */
function embeddedIpv4(groups: number[]): string[] {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const zeros = (...values: number[]) => values.every((value) => value === 0);
  if (zeros(g0, g1, g2, g3, g4) && g5 === 0xffff) return [ipv4Of(g6, g7)];
  if (zeros(g0, g1, g2, g3, g5) && g4 === 0xffff) return [ipv4Of(g6, g7)];
  if (g0 === 0x64 && g1 === 0xff9b && zeros(g2, g3, g4, g5)) return [ipv4Of(g6, g7)];
  if (g0 === 0x2002) return [ipv4Of(g1, g2)];
  if (g0 === 0x2001 && g1 === 0) return [ipv4Of(g2, g3), ipv4Of(g6 ^ 0xffff, g7 ^ 0xffff)];
  return [];
}

/**
 * Whether an IP address is private, loopback, link-local, reserved or multicast, in any of its
 * spellings (`::ffff:10.0.0.1`, `::ffff:a00:1`, expanded, with a zone), IPv4 inside IPv6 included.
 *
 * @example isPrivateAddress('2002:a00:1::') // true: 6to4 to 10.0.0.1
 */
export function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 4) return PRIVATE.check(address, 'ipv4');
  const groups = ipv6Groups(address);
  if (!groups) return true;
  if (PRIVATE.check(groups.map((group) => group.toString(16)).join(':'), 'ipv6')) return true;
  return embeddedIpv4(groups).some((ipv4) => PRIVATE.check(ipv4, 'ipv4'));
}

export interface TargetPolicy {
  /**
   * The operator's own private endpoints (`WEBHOOK_ALLOWED_PRIVATE_ORIGINS`): origins, or origins
   * with a path that URLs must be under (`http://127.0.0.1:8080/v1/engine-webhooks`), that may be
   * private anyway (endpoint-rules.ts). Nothing else private is ever called.
   */
  allowedPrivateOrigins: readonly string[];
}

const hostOf = (url: URL) => normalHostName(url.hostname);
const excepted = (url: URL, policy: TargetPolicy | undefined) =>
  isPrivateException(url, policy?.allowedPrivateOrigins ?? []);

/**
 * Refuses a URL that may never be an endpoint, before any address is looked up. A live endpoint
 * uses https; a room that passes its `policy` also lets the operator's own allowed private origins
 * use http (the helpdesk's webhooks to services beside it).
 */
export function checkEndpointUrl(raw: string, environment: Environment, policy?: TargetPolicy): URL {
  const url = new URL(raw);
  const httpAllowed = environment === 'sandbox' || excepted(url, policy);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && httpAllowed)) {
    throw new ParleyError(
      'invalid_request',
      environment === 'live' ? 'Live webhook endpoints must use https.' : 'Webhook endpoints use http or https.',
    );
  }
  if (url.username || url.password)
    throw new ParleyError('invalid_request', 'A webhook URL may not carry a user name or password.');
  return url;
}

/** The addresses a host name has now (an IP literal is its own address). */
function resolve(host: string): Promise<LookupAddress[]> {
  if (isIP(host)) return Promise.resolve([{ address: host, family: isIP(host) }]);
  return new Promise((done, fail) =>
    dnsLookup(host, { all: true }, (error, addresses) => (error ? fail(error) : done(addresses))),
  );
}

/**
 * Refuses an endpoint whose host is plainly private without looking it up: an IP literal in a
 * private range, or a name endpoint-rules.ts refuses (`localhost.`, `ip6-localhost`, a name of one
 * label, `*.nip.io`), unless it is one of the operator's exceptions. A host name is checked at
 * every connection instead (`guardedLookup`), so a name that does not resolve from here yet (a
 * bot's server being set up) can still be saved.
 */
export function checkEndpointHost(url: URL, policy: TargetPolicy): void {
  if (excepted(url, policy)) return;
  const host = hostOf(url);
  if (isIP(host) && isPrivateAddress(host)) {
    throw new ParleyError(
      'invalid_request',
      `The host ${url.hostname} is a private address; webhooks never call private addresses.`,
    );
  }
  const refused = refusedHostName(host);
  if (refused)
    throw new ParleyError(
      'invalid_request',
      `The host ${url.hostname} ${refused}; webhooks never call private addresses, and this one cannot be checked.`,
    );
}

/** Refuses an endpoint whose host resolves to a private address now (unless its origin is allowed). */
export async function checkEndpointAddress(url: URL, policy: TargetPolicy): Promise<void> {
  if (excepted(url, policy)) return;
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(hostOf(url));
  } catch {
    throw new ParleyError('invalid_request', `The host ${url.hostname} of the webhook URL cannot be resolved.`);
  }
  if (addresses.length === 0 || addresses.some((entry) => isPrivateAddress(entry.address))) {
    throw new ParleyError(
      'invalid_request',
      `The host ${url.hostname} resolves to a private address; webhooks never call private addresses.`,
    );
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that refuses private addresses at connection time, so the address
 * connected to is the address checked.
 */
export function guardedLookup(url: URL, policy: TargetPolicy) {
  const allowed = excepted(url, policy);
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (addresses) => {
        const usable = allowed ? addresses : addresses.filter((entry) => !isPrivateAddress(entry.address));
        if (usable.length === 0 || usable.length !== addresses.length) {
          const error: NodeJS.ErrnoException = new Error(`${hostname} resolves to a private address; not called`);
          error.code = 'EPRIVATEADDRESS';
          callback(error, '', 0);
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
