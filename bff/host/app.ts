import { createSignal, type Signal } from '../../shared/server/index.ts';
import { startAttachmentSweep } from '../attachments/sweep.ts';
import type { Bff, BffDeps } from './deps.ts';
import { addBffGauges } from './gauges.ts';
import { startSnoozeLapses } from '../helpdesk/snooze-lapses.ts';
import { startHousekeeping } from './housekeeping.ts';
import { createHttpApp } from './http-app.ts';
import { createBffSockets, type BffSocketDeps, type ClosedAccount, type PresenceChange } from './sockets.ts';
import type { TokenHolder } from '../helpdesk/store/credentials.ts';
import { createSurfaceParts } from './surface-parts.ts';
import { createEmail, type Email } from '../email/email.ts';
import { clientApiSurface, helpdeskSurfaces, openSurface, widgetSurface, type SurfaceParts } from './surfaces.ts';

export type { Bff, BffDeps } from './deps.ts';
export { SITE_KEY_LIMIT, WIDGET_REQUESTS_PER_MINUTE } from './limiters.ts';
export { BFF_MIGRATIONS, BFF_SEALED_COLUMNS } from './store-preparation.ts';

/**
 * Builds the BFF on its store (migrating it first), resumes forwarding any waiting work, and
 * starts reading the engine's feed. Wiring only, in dependency order: each part gets what it
 * needs, and nothing is set afterwards.
 */
export async function createBff(deps: BffDeps): Promise<Bff> {
  const parts = await createSurfaceParts(deps);
  const { sql, logger, now, trustProxyHops, access, limiters, metrics, pipeline } = parts;
  // Everyone connected to an account the operator suspends or deletes is disconnected (the sockets listen, on every node through the adapter).
  const accountClosed = createSignal<ClosedAccount>();
  // A person or bot whose access changed has their open consoles checked again (on every node, through the adapter).
  const accessChanged = createSignal<TokenHolder>();
  // Someone's availability is told to the account's open consoles (on every node, through the adapter).
  const presenceChanged = createSignal<PresenceChange>();
  // Answers e-mailed to customers who are not there, and their replies taken back (issue 32).
  const email = createEmail({
    sql,
    logger,
    now,
    settings: deps.email,
    publicUrl: deps.publicUrl,
    publisher: pipeline.publisher,
    conversations: pipeline.conversations,
    sessions: access.sessions,
    widgetLimiter: limiters.widgetLimiter,
    limiter: limiters.floodLimiter,
    metrics,
    attachments: pipeline.attachments,
    engines: access.engines,
    recorder: pipeline.recorder,
  });
  const signals = { accountClosed, accessChanged, presenceChanged };
  const { app, openApi, deskConversations } = createRoutes(deps, parts, signals, email);
  const { conversations, publisher, erasure, relay, feed, webhooks, attachments } = pipeline;
  const sockets = createBffSockets({
    sql,
    sessions: access.sessions,
    conversations,
    publisher,
    logger,
    consumeCommand: limiters.consumeCommand,
    trustProxyHops,
    socketsPerAddress: deps.widgetSocketsPerAddress,
    now,
    publicUrl: deps.publicUrl,
    redis: deps.redis,
    erasure,
    deskConversations,
    accountClosed,
    accessChanged,
    presenceChanged,
    secrets: parts.secrets,
    engines: access.engines,
    iceServers: deps.iceServers ?? [],
    callLimits: { maxS: deps.callMaxS, leaseMs: deps.callLeaseMs },
  });
  const { housekeeping, attachmentSweep, snoozeLapses } = await startBackgroundWork(deps, parts);
  addBffGauges(metrics, sql, sockets);
  await email.start({ customerConnected: sockets.customerConnected });

  return {
    app,
    conversations,
    relay,
    feed,
    webhooks,
    housekeeping,
    attachments,
    metrics,
    engines: access.engines,
    email,
    openApi,
    attach: (server) => sockets.attach(server),
    async close() {
      await email.stop();
      housekeeping.stop();
      attachmentSweep.stop();
      snoozeLapses.stop();
      await feed.stop();
      await relay.close();
      await webhooks.stop();
      await sockets.close();
    },
  };
}

/** The routes of every surface in one Koa app, with their OpenAPI document; the desk's conversations go on to the sockets. */
function createRoutes(
  deps: BffDeps,
  parts: SurfaceParts,
  {
    accountClosed,
    accessChanged,
    presenceChanged,
  }: Pick<BffSocketDeps, 'accountClosed' | 'accessChanged' | 'presenceChanged'>,
  email: Pick<Email, 'routes' | 'widgetRoutes'>,
) {
  const open = openSurface(deps, parts);
  const desk = clientApiSurface(deps, parts);
  const widget = widgetSurface(parts);
  const helpdesk = helpdeskSurfaces(
    deps,
    parts,
    (accountId, inboxIds) => accountClosed.emit({ accountId, inboxIds }),
    accessChanged.emit,
    presenceChanged.emit,
  );
  const surfaces = [
    widget,
    email.widgetRoutes,
    desk,
    helpdesk.signIn,
    helpdesk.platform,
    helpdesk.application,
    email.routes,
  ];
  const { app, openApi } = createHttpApp({
    open,
    surfaces,
    extraRouters: deps.extraRouters ?? [],
    metrics: parts.metrics,
    logger: parts.logger,
    trustProxyHops: parts.trustProxyHops,
  });
  return { app, openApi, deskConversations: helpdesk.deskConversations };
}

/** Resumes forwarding waiting work, starts reading the engine's feed, and starts the webhook worker and the timers. */
async function startBackgroundWork(deps: BffDeps, { sql, logger, now, pipeline }: SurfaceParts) {
  const { relay, feed, webhooks, attachments } = pipeline;
  await relay.resume();
  feed.start();
  const webhookPollMs = deps.deskWebhooks?.pollMs ?? 1000;
  if (webhookPollMs > 0) webhooks.start(webhookPollMs);
  const housekeeping = startHousekeeping({ sql, logger, now }, deps.housekeepingMs);
  const attachmentSweep = startAttachmentSweep(attachments, logger, deps.housekeepingMs);
  const snoozeLapses = startSnoozeLapses({ sql, now, logger, publisher: pipeline.publisher });
  return { housekeeping, attachmentSweep, snoozeLapses };
}
