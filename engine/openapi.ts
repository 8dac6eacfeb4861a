import { buildOpenApi, type RouteSpec } from '../shared/server/index.ts';

/** The engine's OpenAPI 3.1 document, built from the same route declarations that validate requests. */
export function engineOpenApi(routes: readonly RouteSpec[]): Record<string, unknown> {
  return buildOpenApi({
    title: 'Parley AI conversation API',
    version: '1.0.0',
    description:
      'Open conversations for your customers, send their messages, and read what the AI did as events. Authenticate with your API key as a bearer token (service_test_… for the sandbox, service_live_… for live data). Errors are {error: {code, message, details?}}.',
    securitySchemes: {
      apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: service_test_… or service_live_….' },
    },
    commonErrors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'rate_limited', 'idempotency_key_in_use', 'idempotency_key_reused'],
    idempotencyHeader: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Makes a retry safe: the first answer is kept 24 hours per key, route and credential and given again for the same body.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    },
    commonHeaders: {
      'X-RateLimit-Limit': { description: 'Requests allowed in the current minute.', schema: { type: 'integer' } },
      'X-RateLimit-Remaining': { description: 'Requests left in the current minute.', schema: { type: 'integer' } },
      'X-RateLimit-Reset': { description: 'Unix seconds when the current minute ends.', schema: { type: 'integer' } },
    },
    routes,
  });
}
