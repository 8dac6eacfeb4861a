/** The Node-only door of `shared/`: SQL, HTTP, settings and logging pieces the engine and the BFF both use. */
export * from './sql.ts';
export * from './http.ts';
export * from './logger.ts';
export * from './session-tokens.ts';
export * from './api-routes.ts';
export * from './openapi.ts';
export * from './rate-limiter.ts';
export * from './client-address.ts';
export * from './redis.ts';
export * from './env.ts';
export * from './webhooks/targets.ts';
export * from './webhooks/sender.ts';
export * from './webhooks/deliveries.ts';
export * from './webhooks/worker.ts';
export * from './secret-box.ts';
export * from './media.ts';
export * from './private-files.ts';
