import { buildOpenApi, type RouteSpec } from '../shared/server/index.ts';

/** The BFF's OpenAPI 3.1 document, built from the route declarations that validate its requests. */
export function bffOpenApi(routes: readonly RouteSpec[]): Record<string, unknown> {
  return buildOpenApi({
    title: 'Parley BFF: widget sessions and widget routes',
    version: '1.0.0',
    description:
      'What the Parley widget, the hosted chat page and apps call. A site key (pk_…) starts a visitor session; a site\'s server starts a verified customer\'s session with its API key (service_…); everything after that takes the session token (wst_…). Realtime: Socket.IO namespace /widget with auth {token}. Errors are {error: {code, message, details?}}.',
    securitySchemes: {
      siteKeyOrApiKey: { type: 'http', scheme: 'bearer', description: 'A site key (pk_test_… / pk_live_…) for a visitor, or an API key (service_…) for a verified customer.' },
      sessionToken: { type: 'http', scheme: 'bearer', description: 'A widget session token (wst_…).' },
      apiKey: { type: 'http', scheme: 'bearer', description: "Your API key (service_…)." },
    },
    commonErrors: ['invalid_json', 'invalid_request', 'unsupported_media_type', 'payload_too_large', 'unauthorized', 'rate_limited', 'origin_not_allowed'],
    commonHeaders: {
      'X-RateLimit-Limit': { description: 'Requests allowed in the window.', schema: { type: 'integer' } },
      'X-RateLimit-Remaining': { description: 'Requests left in the window.', schema: { type: 'integer' } },
      'X-RateLimit-Reset': { description: 'Unix seconds when the minute ends (widget routes).', schema: { type: 'integer' } },
    },
    isDeskRoute: (path) => path.startsWith('/public/') || path.startsWith('/survey/'),
    routes,
  });
}
