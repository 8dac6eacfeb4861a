import { buildOpenApi, type RouteSpec } from '../shared/server/index.ts';
import { ADDRESS_REQUESTS_PER_MINUTE } from './rate-limit.ts';

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed in the current minute.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current minute.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix seconds when the current minute ends.', schema: { type: 'integer' } },
};

interface Operation {
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: unknown }>;
}

/** The engine's OpenAPI 3.1 document, built from the same route declarations that validate requests. */
export function engineOpenApi(routes: readonly RouteSpec[]): Record<string, unknown> {
  const document = buildOpenApi({
    title: 'Parley AI conversation API',
    version: '1.0.0',
    description: `Open conversations for your customers, send their messages, and read what the AI did as events. Authenticate with your API key as a bearer token (service_test_… for the sandbox, service_live_… for live data). Errors are {error: {code, message, details?}}. Every answer carries X-RateLimit-Limit, -Remaining and -Reset: requests with an API key count against its account and environment (all their keys together), others against the client address (${ADDRESS_REQUESTS_PER_MINUTE} a minute); over the limit the answer is 429 rate_limited with Retry-After.`,
    securitySchemes: {
      apiKey: {
        type: 'http',
        scheme: 'bearer',
        description:
          'An API key: service_test_… or service_live_…. A key of an account the operator suspended answers 403 account_suspended.',
      },
      operatorToken: {
        type: 'http',
        scheme: 'bearer',
        description:
          "The installation operator's token (the engine's ENGINE_OPERATOR_TOKEN): the Operator routes only, never an account's data.",
      },
    },
    commonErrors: [
      'invalid_json',
      'invalid_request',
      'unsupported_media_type',
      'payload_too_large',
      'unauthorized',
      'account_suspended',
      'rate_limited',
      'idempotency_key_in_use',
      'idempotency_key_reused',
    ],
    // The operator's routes keep no Idempotency-Key (a retried create makes a second account).
    idempotentSchemes: ['apiKey'],
    idempotencyHeader: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes a retry safe: the first answer is kept 24 hours per key, route and credential and given again for the same body.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    },
    commonHeaders: RATE_LIMIT_HEADERS,
    routes,
  });
  // The builder gives the headers and the 429 to keyed routes only; the engine counts every request
  // (public ones per client address), so every answer of every route has them.
  const headers = Object.fromEntries(
    Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
  );
  for (const item of Object.values(document['paths'] as Record<string, Record<string, Operation>>)) {
    for (const operation of Object.values(item)) {
      operation.responses['429'] ??= {
        description: 'Error: rate_limited',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
      for (const response of Object.values(operation.responses)) response.headers ??= headers;
    }
  }
  return document;
}
