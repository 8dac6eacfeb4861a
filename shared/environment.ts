/**
 * The two worlds of an account (DESIGN "Credentials"): test keys (`pk_test_`, `service_test_`)
 * reach the sandbox, live keys the live data, and the two never meet. Every key, session token,
 * conversation and event names one. Declared once here; zod-free, so the widget may import it.
 *
 * @example const environment: Environment = key.startsWith('service_live_') ? 'live' : 'sandbox';
 */
export const ENVIRONMENTS = ['sandbox', 'live'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
