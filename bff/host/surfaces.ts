import { join } from 'node:path';
import { ApiRoutes, type Logger, type SecretBox, type Sql } from '../../shared/server/index.ts';
import type { EngineKeys } from '../engine-link/engine-keys.ts';
import { createEngineAccountProvisioning } from '../engine-link/engine-account-provisioning.ts';
import { createEngineAccountKeys } from '../engine-link/engine-account-keys.ts';
import { addEngineWebhookRoutes } from '../engine-link/webhook-routes.ts';
import {
  applicationAuth,
  platformAuth,
  validationIs422,
  type ApplicationState,
  type PlatformState,
} from '../helpdesk/auth.ts';
import { addApplicationRoutes } from '../helpdesk/application-routes.ts';
import { createHelpdeskCounter, helpdeskLimits } from '../helpdesk/rate-limits.ts';
import { addInboxRoutes } from '../helpdesk/inbox-routes.ts';
import { withInterviewOfferCheck } from '../helpdesk/interview-offer-check.ts';
import { addApiKeyRoutes } from '../helpdesk/api-key-routes.ts';
import { createApiKeyService } from '../helpdesk/api-key-service.ts';
import { addCannedResponseRoutes } from '../helpdesk/canned-response-routes.ts';
import { addDeskConversationRoutes } from '../helpdesk/desk-conversation-routes.ts';
import { createDeskConversationService } from '../helpdesk/desk-conversation-service.ts';
import { addWebhookRoutes } from '../helpdesk/webhook-routes.ts';
import { createInboxService } from '../helpdesk/inbox-service.ts';
import { createHelpdeskService } from '../helpdesk/helpdesk-service.ts';
import type { OnAccessChanged } from '../helpdesk/store/credentials.ts';
import { addPlatformRoutes } from '../helpdesk/platform-routes.ts';
import { addSessionSignInRoutes } from '../helpdesk/session-routes.ts';
import { addConsoleRoutes } from '../helpdesk/console-page.ts';
import { createClientService } from '../client-api/client-service.ts';
import { addClientApiRoutes, type DeskState } from '../client-api/routes.ts';
import { addSurveyPageRoutes } from '../widget/survey-page.ts';
import { addHostedChatRoutes } from '../widget/hosted-chat-page.ts';
import { addWidgetRoutes } from '../widget/conversation-routes.ts';
import { addWidgetStartRoute } from '../widget/start-routes.ts';
import { addWidgetInterviewRoutes } from '../widget/interview-routes.ts';
import { createWidgetInterviews } from '../widget/widget-interviews.ts';
import { addWidgetHelpRoutes } from '../widget/help-routes.ts';
import { createHelpArticles } from '../widget/help-articles.ts';
import { addWidgetAssetRoutes } from '../widget/asset-routes.ts';
import { addSessionRoutes } from '../widget/session-routes.ts';
import { sessionAuth, widgetRateLimit, type WidgetState } from '../widget/session-auth.ts';
import { addWidgetAttachmentRoutes } from '../attachments/widget-routes.ts';
import { addDeskAttachmentRoutes } from '../attachments/desk-routes.ts';
import { createDeskFiles } from '../attachments/desk-files.ts';
import { addDeskReportRoutes } from '../helpdesk/report-routes.ts';
import { addFindingRoutes } from '../helpdesk/finding-routes.ts';
import { createDeskConversationAccess } from '../helpdesk/desk-conversation-access.ts';
import { addDeskAssistRoutes } from '../helpdesk/desk-assist-routes.ts';
import { addSearchRoutes } from '../helpdesk/search-routes.ts';
import { addLabelRoutes } from '../helpdesk/label-routes.ts';
import { addTeamRoutes } from '../helpdesk/team-routes.ts';
import { addContactRoutes } from '../helpdesk/contact-routes.ts';
import { createContactService } from '../helpdesk/contact-service.ts';
import { addPresenceRoutes, type OnPresenceChanged } from '../helpdesk/presence-routes.ts';
import { addHealthRoutes } from './health-routes.ts';
import { addMetricsRoutes } from './metrics-routes.ts';
import type { BffDeps } from './deps.ts';
import type { EngineAccess } from './engine-access.ts';
import { WIDGET_REQUESTS_PER_MINUTE, type BffLimiters } from './limiters.ts';
import type { MessagePipeline } from './message-pipeline.ts';
import type { Metrics } from './metrics.ts';

/** What the routes of every surface are built on: the parts `createBff` built before them. */
export interface SurfaceParts {
  sql: Sql;
  logger: Logger;
  now: () => Date;
  secrets: SecretBox;
  trustProxyHops: number;
  installation: EngineKeys;
  access: EngineAccess;
  limiters: BffLimiters;
  metrics: Metrics;
  pipeline: MessagePipeline;
  webhookPolicy: { allowedPrivateOrigins: readonly string[] };
  /** The secrets the engine signs its webhooks to this BFF with. */
  webhookSecrets: readonly string[];
}

/** The routes that need no session: site keys, the engine's webhooks, assets, health, metrics and the hosted pages. */
export function openSurface(
  deps: BffDeps,
  { sql, now, trustProxyHops, installation, access, limiters, metrics, pipeline, webhookSecrets }: SurfaceParts,
): ApiRoutes {
  const { engines, sessions, ownAccountId } = access;
  const open = new ApiRoutes();
  addSessionRoutes(open, {
    sql,
    sessions,
    engines,
    ownAccountId,
    siteKeyLimiter: limiters.siteKeyLimiter,
    apiKeyLimiter: limiters.floodLimiter,
    apiKeySessionsPerMinute: deps.apiKeySessionsPerMinute,
    trustProxyHops,
    now,
  });
  addEngineWebhookRoutes(open, {
    sql,
    recorder: pipeline.recorder,
    engines,
    secrets: webhookSecrets,
    now,
    onWebhook: () => pipeline.feed.webhookArrived(),
  });
  addWidgetAssetRoutes(open, deps.widgetAssetsDir);
  addHealthRoutes(open, { sql, engines: installation, redis: deps.redis });
  addMetricsRoutes(open, metrics, deps.metricsToken);
  addHostedChatRoutes(open, sql);
  addConsoleRoutes(open, deps.consoleAssetsDir ?? join(deps.widgetAssetsDir, '../console'));
  return open;
}

/** The Client API (and its survey page), for a shop's own servers and apps. */
export function clientApiSurface(
  deps: BffDeps,
  { sql, now, secrets, trustProxyHops, limiters, pipeline }: SurfaceParts,
): ApiRoutes<DeskState> {
  const { conversations, attachments, publisher } = pipeline;
  const client = createClientService({
    sql,
    secrets,
    conversations,
    attachments,
    publisher,
    floodLimiter: limiters.floodLimiter,
    now,
    publicUrl: deps.publicUrl,
  });
  const desk = new ApiRoutes<DeskState>();
  addClientApiRoutes(desk, client, { trustProxyHops, limits: deps.clientApiLimits });
  addSurveyPageRoutes(desk, client);
  return desk;
}

/** The widget's routes, behind a session and the per-customer limit. */
export function widgetSurface({
  sql,
  now,
  trustProxyHops,
  access,
  limiters,
  pipeline,
}: SurfaceParts): ApiRoutes<WidgetState> {
  const { conversations, attachments, deskHooks, recorder, publisher } = pipeline;
  const widget = new ApiRoutes<WidgetState>({
    middleware: [
      sessionAuth(access.sessions, sql),
      widgetRateLimit(limiters.widgetLimiter, WIDGET_REQUESTS_PER_MINUTE, now, sql),
    ],
  });
  addWidgetRoutes(widget, conversations, deskHooks, trustProxyHops);
  addWidgetStartRoute(widget, conversations, deskHooks);
  addWidgetAttachmentRoutes(widget, attachments, conversations, trustProxyHops);
  addWidgetHelpRoutes(widget, createHelpArticles({ engines: access.engines, now }));
  addWidgetInterviewRoutes(widget, createWidgetInterviews({ sql, engines: access.engines, recorder, publisher, now }));
  return widget;
}

/**
 * The helpdesk's surfaces: the Platform API, the Application API (with the desk's conversations)
 * and sign-in. `onAccountClosed` hears of every account the operator suspends or deletes,
 * `onAccessChanged` of every person or bot whose access to the desk changed.
 */
export function helpdeskSurfaces(
  deps: BffDeps,
  parts: SurfaceParts,
  onAccountClosed: (accountId: number, inboxIds: string[]) => void,
  onAccessChanged: OnAccessChanged,
  onPresenceChanged: OnPresenceChanged,
) {
  const { sql, logger, now, secrets, trustProxyHops, limiters, pipeline, webhookPolicy } = parts;
  const { engines } = parts.access;
  const engineAccounts = createEngineAccountProvisioning({
    sql,
    secrets,
    accounts: engines,
    operator: deps.operator,
    webhookUrl: deps.engineWebhookUrl,
    logger,
    now,
  });
  const helpdesk = createHelpdeskService({
    sql,
    now,
    policy: webhookPolicy,
    secrets,
    engineAccounts,
    onAccountClosed,
    onAccessChanged,
  });
  const counter = createHelpdeskCounter({
    limiter: limiters.floodLimiter,
    limits: helpdeskLimits(deps.helpdeskLimits),
    now,
    trustProxyHops,
  });
  const platform = new ApiRoutes<PlatformState>({
    middleware: [validationIs422, platformAuth(sql, trustProxyHops, counter)],
  });
  addPlatformRoutes(platform, helpdesk, (origin) => deps.publicUrl ?? origin);
  const application = new ApiRoutes<ApplicationState>({
    middleware: [validationIs422, applicationAuth(sql, now, trustProxyHops, counter)],
  });
  addApplicationRoutes(application, helpdesk, sql);
  const inboxes = withInterviewOfferCheck(createInboxService({ sql, now, secrets, onAccessChanged }), { sql, engines });
  addInboxRoutes(application, inboxes, sql);
  const engineAccountKeys = createEngineAccountKeys({ sql, operator: deps.operator, logger, now });
  addApiKeyRoutes(application, createApiKeyService({ sql, keys: engineAccountKeys, now }), sql);
  addCannedResponseRoutes(application, { sql, now });
  addWebhookRoutes(application, { sql, worker: pipeline.webhooks, policy: webhookPolicy, now, secrets });
  const { recorder, conversations, publisher, attachments } = pipeline;
  const deskDeps = { sql, engines, recorder, conversations, publisher, now, publicUrl: deps.publicUrl };
  const deskConversations = createDeskConversationService(deskDeps);
  const contacts = createContactService({ sql, now, access: deskConversations });
  // Before the conversation routes: their `{conversation_id}` would take `search` for an id.
  addSearchRoutes(application, { sql, now, desk: deskConversations, contacts });
  const deskFiles = createDeskFiles({ ...deskDeps, attachments, desk: deskConversations });
  addDeskConversationRoutes(application, deskConversations, sql, deskFiles);
  addLabelRoutes(application, { sql, now, desk: deskConversations, publisher });
  addTeamRoutes(application, { sql, now });
  addContactRoutes(application, { sql, contacts });
  addPresenceRoutes(application, { sql, now, onPresenceChanged });
  addDeskAttachmentRoutes(application, { desk: deskConversations, attachments, sql });
  addDeskReportRoutes(application, { sql, engines });
  addFindingRoutes(application, { sql, access: createDeskConversationAccess({ sql, now }) });
  addDeskAssistRoutes(application, { desk: deskConversations, engines, sql });
  const signIn = new ApiRoutes({ middleware: [validationIs422] });
  addSessionSignInRoutes(signIn, {
    sql,
    helpdesk,
    limiter: limiters.floodLimiter,
    trustProxyHops,
    now,
    onAccessChanged,
  });
  return { platform, application, signIn, deskConversations };
}
