import type { Environment } from '../../shared/environment.ts';
/**
 * Where a sandbox key's verified customers live within an inbox: `test:<customer_ref>`, a space no
 * live token reaches (a verified reference may not start with it: VerifiedCustomerRef), so sandbox
 * tests never read or write a live customer's conversations. The engine keeps its own sandbox
 * apart by the key, so it is told the reference as the site's server gave it.
 */
export const SANDBOX_PREFIX = 'test:';

/** The BFF's reference of a verified customer of the given environment. */
export const bffCustomerRef = (ref: string, verified: boolean, environment: Environment): string =>
  verified && environment === 'sandbox' ? `${SANDBOX_PREFIX}${ref}` : ref;

/** The reference as the site's server gave it, for the engine and for the customer's own eyes. */
export const givenCustomerRef = (ref: string): string =>
  ref.startsWith(SANDBOX_PREFIX) ? ref.slice(SANDBOX_PREFIX.length) : ref;
