import { ParleyError } from '../../shared/index.ts';
import { clientLimitKey, parseWith, type ApiRoutes } from '../../shared/server/index.ts';
import { validationIs422 } from '../helpdesk/auth.ts';
import type { ClientService } from './client-service.ts';
import { clientApiLimits, refuseOverLimit, type ClientApiLimits } from './limits.ts';
import { inboxShape } from './shapes.ts';
import { PublicInbox } from './schemas.ts';
import {
  base,
  errors,
  ContactIdentifier,
  InboxIdentifier,
  inboxParams,
  tag,
  type AddressState,
  type ContactState,
} from './route-paths.ts';
import { addContactRoutes } from './contact-routes.ts';
import { addConversationActionRoutes, addConversationRoutes } from './conversation-routes.ts';
import { addAttachmentRoutes, addMessageRoutes } from './message-routes.ts';
import { addCsatSurveyRoutes } from './csat-survey-routes.ts';

/** The client's address (the limits count by it), and what the path's identifiers name, loaded once per request. */
export interface DeskState extends AddressState, ContactState {}

export interface ClientApiRouteOptions {
  /** How many proxies in front append to X-Forwarded-For (0, the default: the peer is the client). */
  trustProxyHops?: number | undefined;
  /** Other numbers for some limits (a test lifts one); by default CLIENT_API_LIMITS. */
  limits?: Partial<ClientApiLimits> | undefined;
}

/**
 * The helpdesk Client API (SPEC "Helpdesk Client API"), compatible with Chatwoot's: no credential,
 * the inbox identifier and the contact identifier are the capability. The inbox and the contact are
 * loaded once per request, and a browser's Origin is checked against the inbox's allowlist when it
 * has one (without a list any origin may call). Errors use the `bad_request_error` shape.
 *
 * Every request counts against its client address, then against its inbox (limits.ts); creating a
 * contact and sending a message have tighter limits of their own. Over a limit the answer is 429
 * with Retry-After. The address count runs first, before anything is looked up, on every route
 * under /public/api/v1 (not the survey page's HTML, which `routes` also carries).
 */
export function addClientApiRoutes(
  routes: ApiRoutes<DeskState>,
  client: ClientService,
  { trustProxyHops = 0, limits: overrides }: ClientApiRouteOptions = {},
): void {
  const limits = clientApiLimits(overrides);
  // A failed validation is 422 here as on the Platform and Application APIs (SPEC Errors rule 1).
  routes.router.use((ctx, next) => (ctx.path.startsWith('/public/api/v1/') ? validationIs422(ctx, next) : next()));
  loadDeskState(routes, client, limits, trustProxyHops);
  addInboxRoutes(routes);
  addContactRoutes(routes, client, limits);
  addConversationRoutes(routes, client, limits);
  addConversationActionRoutes(routes, client);
  addMessageRoutes(routes, client, limits);
  addAttachmentRoutes(routes, client);
  addCsatSurveyRoutes(routes, client);
}

/** Counts the request against its address, then loads (and counts against) the inbox and the contact of its path. */
function loadDeskState(
  routes: ApiRoutes<DeskState>,
  client: ClientService,
  { requestsPerAddress, requestsPerInbox }: ClientApiLimits,
  trustProxyHops: number,
): void {
  routes.router.use(async (ctx, next) => {
    ctx.state.address = clientLimitKey(ctx.req, trustProxyHops);
    // The survey page (HTML) counts against the same address limit as the API.
    if (!ctx.path.startsWith('/public/api/v1/') && !ctx.path.startsWith('/survey/responses/')) return next();
    const counted = await client.count('requestsPerAddress', ctx.state.address, requestsPerAddress);
    ctx.set('X-RateLimit-Limit', String(counted.decision.limit));
    ctx.set('X-RateLimit-Remaining', String(counted.decision.remaining));
    ctx.set('X-RateLimit-Reset', String(counted.decision.resetS));
    refuseOverLimit(ctx, counted, `This address may make ${requestsPerAddress} requests a minute to the Client API.`);
    await next();
  });
  routes
    .param('inbox_identifier', async (value, ctx) => {
      const inbox = await client.inboxOf(parseWith(InboxIdentifier, value, 'path'));
      const counted = await client.count('requestsPerInbox', inbox.id, requestsPerInbox);
      refuseOverLimit(
        ctx,
        counted,
        `This inbox takes ${requestsPerInbox} requests a minute from all its clients together.`,
      );
      // A browser request from an origin the inbox does not list is refused (and gets no Access-Control-Allow-Origin).
      const origin = ctx.get('origin');
      if (origin && inbox.clientApiOrigins.length > 0 && !inbox.clientApiOrigins.includes(origin)) {
        throw new ParleyError('origin_not_allowed', `This inbox may not be used from ${origin}.`);
      }
      ctx.state.inbox = inbox;
    })
    .param('contact_identifier', async (value, ctx) => {
      ctx.state.contact = await client.contactOf(ctx.state.inbox, parseWith(ContactIdentifier, value, 'path'));
    });
}

/** The inbox itself: `/public/api/v1/inboxes/{inbox_identifier}`. */
function addInboxRoutes(routes: ApiRoutes<DeskState>): void {
  routes.add(
    {
      method: 'get',
      path: base,
      tag,
      summary: 'The inbox',
      params: inboxParams,
      responses: { 200: { description: 'The public inbox.', schema: PublicInbox } },
      // SPEC lists 401 on every Client API route, this one too.
      errors: [...errors],
    },
    async (ctx) => {
      ctx.body = inboxShape(ctx.state.inbox);
    },
  );
}
