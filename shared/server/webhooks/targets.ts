import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { ParleyError } from '../../errors.ts';

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
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is private, loopback, link-local, reserved or multicast (IPv4 inside IPv6 included). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family !== 6) return true;
  const embedded = /^(?:::ffff:|::ffff:0:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (embedded) return PRIVATE.check(embedded, 'ipv4');
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const high = Number.parseInt(hex[1]!, 16);
    const low = Number.parseInt(hex[2]!, 16);
    return PRIVATE.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
  }
  return PRIVATE.check(address, 'ipv6');
}

export interface TargetPolicy {
  /**
   * Exact origins (`http://127.0.0.1:8080`) that may be private anyway: an operator's own BFF on
   * the same machine or network. Nothing else private is ever called.
   */
  allowedPrivateOrigins: readonly string[];
}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Refuses a URL that may never be an endpoint, before any address is looked up. A live endpoint
 * uses https; a room that passes its `policy` also lets the operator's own allowed private origins
 * use http (the helpdesk's webhooks to services beside it).
 */
export function checkEndpointUrl(raw: string, environment: 'live' | 'sandbox', policy?: TargetPolicy): URL {
  const url = new URL(raw);
  const httpAllowed = environment === 'sandbox' || (policy?.allowedPrivateOrigins.includes(url.origin) ?? false);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && httpAllowed)) {
    throw new ParleyError('invalid_request', environment === 'live' ? 'Live webhook endpoints must use https.' : 'Webhook endpoints use http or https.');
  }
  if (url.username || url.password) throw new ParleyError('invalid_request', 'A webhook URL may not carry a user name or password.');
  return url;
}

/** The addresses a host name has now (an IP literal is its own address). */
function resolve(host: string): Promise<LookupAddress[]> {
  if (isIP(host)) return Promise.resolve([{ address: host, family: isIP(host) }]);
  return new Promise((done, fail) => dnsLookup(host, { all: true }, (error, addresses) => (error ? fail(error) : done(addresses))));
}

/**
 * Refuses an endpoint whose host is plainly private without looking it up: an IP literal in a
 * private range, or a `localhost` name (unless its origin is allowed). A host name is checked at
 * every connection instead (`guardedLookup`), so a name that does not resolve from here yet (a
 * bot's server being set up) can still be saved.
 */
export function checkEndpointHost(url: URL, policy: TargetPolicy): void {
  if (policy.allowedPrivateOrigins.includes(url.origin)) return;
  const host = hostOf(url).toLowerCase();
  if ((isIP(host) && isPrivateAddress(host)) || host === 'localhost' || host.endsWith('.localhost')) {
    throw new ParleyError('invalid_request', `The host ${url.hostname} is a private address; webhooks never call private addresses.`);
  }
}

/** Refuses an endpoint whose host resolves to a private address now (unless its origin is allowed). */
export async function checkEndpointAddress(url: URL, policy: TargetPolicy): Promise<void> {
  if (policy.allowedPrivateOrigins.includes(url.origin)) return;
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(hostOf(url));
  } catch {
    throw new ParleyError('invalid_request', `The host ${url.hostname} of the webhook URL cannot be resolved.`);
  }
  if (addresses.length === 0 || addresses.some((entry) => isPrivateAddress(entry.address))) {
    throw new ParleyError('invalid_request', `The host ${url.hostname} resolves to a private address; webhooks never call private addresses.`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that refuses private addresses at connection time, so the address
 * connected to is the address checked.
 */
export function guardedLookup(url: URL, policy: TargetPolicy) {
  const allowed = policy.allowedPrivateOrigins.includes(url.origin);
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
