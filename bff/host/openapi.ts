import { buildOpenApi, type OpenApiOptions, type RouteSpec } from '../../shared/server/index.ts';

/** Helpdesk routes (Client, Platform and Application APIs, the survey page) answer errors as `bad_request_error`. */
export const isDeskRoute = (path: string): boolean =>
  ['/public/', '/survey/', '/platform/', '/api/'].some((prefix) => path.startsWith(prefix));
/** The Platform, Application and Client APIs answer a failed validation with 422 (SPEC Errors rule 1). */
export const validationIs422 = (path: string): boolean =>
  ['/platform/', '/api/', '/public/'].some((prefix) => path.startsWith(prefix));

const helpdeskSecurity: OpenApiOptions['securitySchemes'] = {
  platformToken: {
    type: 'apiKey',
    in: 'header',
    name: 'api_access_token',
    description: "The operator's platform app token (Platform API).",
  },
  accessToken: {
    type: 'apiKey',
    in: 'header',
    name: 'api_access_token',
    description: "A person's or an agent bot's access token, or a console session's (Application API).",
  },
};

/** On every answer of a route with a credential (401s and 429s too); a 429 also has Retry-After. */
const rateLimitHeaders: NonNullable<OpenApiOptions['commonHeaders']> = {
  'X-RateLimit-Limit': { description: 'Requests allowed in the window.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': {
    description: 'Unix seconds when the window lets one more request in (the end of the minute, for most limits).',
    schema: { type: 'integer' },
  },
};

/** The BFF's OpenAPI 3.1 document, built from the route declarations that validate its requests. */
export function bffOpenApi(routes: readonly RouteSpec[]): Record<string, unknown> {
  return buildOpenApi({
    title: 'Parley BFF: widget sessions, widget routes and the helpdesk',
    version: '1.0.0',
    description:
      "What the Parley widget, the hosted chat page and apps call. A site key (pk_…) starts a visitor session; a site's server starts a verified customer's session with its API key (service_…); everything after that takes the session token (wst_…). Realtime: Socket.IO namespace /widget with auth {token}. Errors are {error: {code, message, details?}}; the helpdesk routes (also in /helpdesk/openapi.json) answer bad_request_error.",
    securitySchemes: {
      siteKeyOrApiKey: {
        type: 'http',
        scheme: 'bearer',
        description:
          'A site key (pk_test_… / pk_live_…) for a visitor, or an API key (service_…) for a verified customer.',
      },
      sessionToken: { type: 'http', scheme: 'bearer', description: 'A widget session token (wst_…).' },
      apiKey: { type: 'http', scheme: 'bearer', description: 'Your API key (service_…).' },
      metricsToken: { type: 'http', scheme: 'bearer', description: "The operator's METRICS_TOKEN (GET /metrics)." },
      ...helpdeskSecurity,
    },
    commonErrors: [
      'invalid_json',
      'invalid_request',
      'unsupported_media_type',
      'payload_too_large',
      'unauthorized',
      'account_suspended',
      'rate_limited',
      'origin_not_allowed',
    ],
    commonHeaders: rateLimitHeaders,
    isDeskRoute,
    validationIs422,
    routes,
  });
}

/**
 * The helpdesk's own document (SPEC "Versioning": OpenAPI 3.1.0, interface version 1.1.0): the
 * Platform, Application and Client APIs and the survey page.
 */
export function helpdeskOpenApi(routes: readonly RouteSpec[]): Record<string, unknown> {
  return buildOpenApi({
    title: 'Parley helpdesk API',
    version: '1.1.0',
    description:
      "The helpdesk: the Platform API (/platform/api/v1, the operator's platform app token), the Application API (/api/v1, a person's or agent bot's access token), both in the api_access_token header, and the Client API (/public/api/v1, no credential: the inbox and contact identifiers are the capability). Ids are integers. Errors are bad_request_error: {description, errors: [{field, message, code}]}; a failed validation is 422 on the Platform and Application APIs.",
    securitySchemes: helpdeskSecurity,
    commonErrors: [
      'invalid_json',
      'invalid_request',
      'unsupported_media_type',
      'payload_too_large',
      'account_suspended',
      'rate_limited',
      'origin_not_allowed',
    ],
    commonHeaders: rateLimitHeaders,
    isDeskRoute,
    validationIs422,
    routes: routes.filter((route) => isDeskRoute(route.path)),
  });
}
