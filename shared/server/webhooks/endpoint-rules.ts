import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * The rules on a webhook's or action URL's host that hold before any address is looked up, shared
 * by the engine's webhooks and action URLs and the helpdesk's webhooks and agent bots (issue 33:
 * the helpdesk saved names the engine refused). A name is refused when it names this machine or
 * its network whatever DNS says, so that a saved endpoint is always one that can be checked:
 *
 * - a trailing dot is the same name (`localhost.` is `localhost`);
 * - `localhost`, `*.localhost` (RFC 6761), and the loopback names of /etc/hosts (`ip6-localhost`,
 *   `ip6-loopback`, `localhost.localdomain`, …);
 * - a name of one label (`intranet`, `db`): the local resolver's search domains decide where it goes;
 * - a name under a wildcard DNS service that answers whatever address is written in the name
 *   (`10.0.0.1.nip.io`, `127-0-0-1.sslip.io`, `app.localtest.me`).
 *
 * The operator's own private endpoints are the exceptions (`PrivateExceptions`), never a tenant's choice.
 */

const LOOPBACK_NAMES = new Set([
  'localhost',
  'localhost.localdomain',
  'localhost6',
  'localhost6.localdomain6',
  'ip6-localhost',
  'ip6-loopback',
  'ip6-localnet',
  'ip6-allnodes',
  'ip6-allrouters',
  'ip6-mcastprefix',
  'broadcasthost',
]);

/** Services whose every name resolves to the address written in it, or to this machine. */
const WILDCARD_DNS = [
  'nip.io',
  'sslip.io',
  'xip.io',
  'nip.direct',
  'traefik.me',
  'localtest.me',
  'lvh.me',
  'vcap.me',
  'localho.st',
  'fuf.me',
  'lacolhost.com',
];

/** A host name as it is compared: lower case, without the brackets of an IPv6 literal or a trailing dot. */
export function normalHostName(hostname: string): string {
  return hostname
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.+$/, '');
}

/**
 * Why a host name may never be an endpoint, before any lookup; undefined when it may be (an IP
 * literal is left to the address rules).
 *
 * @example refusedHostName('localhost.') // 'names this machine'
 * @example refusedHostName('10.0.0.1.nip.io') // 'is a wildcard DNS name that resolves to the address written in it'
 */
export function refusedHostName(hostname: string): string | undefined {
  const host = normalHostName(hostname);
  if (isIP(host)) return undefined;
  if (host === '') return 'is empty';
  if (LOOPBACK_NAMES.has(host) || host.endsWith('.localhost')) return 'names this machine';
  if (!host.includes('.')) return "is a name of one label, which the local network's search domains resolve";
  if (WILDCARD_DNS.some((suffix) => host === suffix || host.endsWith(`.${suffix}`)))
    return 'is a wildcard DNS name that resolves to the address written in it';
  return undefined;
}

/**
 * The operator's private exceptions (`WEBHOOK_ALLOWED_PRIVATE_ORIGINS`): each an origin, or an
 * origin and a path that URLs must be at or under (`http://127.0.0.1:3000/v1/engine-webhooks`). An
 * entry with a path lets tenants reach only that part of a private service (the BFF's own webhook
 * route), not every route of its address.
 */
export const PrivateException = z
  .url({ protocol: /^https?$/, error: (issue) => `${JSON.stringify(issue.input)} is not an http(s) URL` })
  .refine(
    (text) => {
      if (!URL.canParse(text)) return true;
      const url = new URL(text);
      return !url.search && !url.hash && !url.username && !url.password;
    },
    { error: (issue) => `${JSON.stringify(issue.input)} is not an origin or an origin with a path (no query)` },
  )
  .transform((text) => {
    const url = new URL(text);
    return url.pathname === '/' ? url.origin : `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  });

/**
 * A comma-separated list of private exceptions; blanks between commas are ignored.
 *
 * @example PrivateExceptions.parse('http://127.0.0.1:3000/v1/engine-webhooks') // ['http://127.0.0.1:3000/v1/engine-webhooks']
 */
export const PrivateExceptions = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .pipe(z.array(PrivateException));

/**
 * Whether `url` is one of the operator's private exceptions: its origin is an entry's, and its
 * path is the entry's path or under it (segment by segment: `/hooks` does not cover `/hooks-admin`).
 *
 * @example isPrivateException(new URL('http://10.0.0.2/hooks/1'), ['http://10.0.0.2/hooks']) // true
 */
export function isPrivateException(url: URL, exceptions: readonly string[]): boolean {
  return exceptions.some((entry) => {
    if (!URL.canParse(entry)) return false;
    const allowed = new URL(entry);
    if (allowed.origin !== url.origin) return false;
    const base = allowed.pathname.replace(/\/+$/, '');
    return base === '' || url.pathname === base || url.pathname.startsWith(`${base}/`);
  });
}
