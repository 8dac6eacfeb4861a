import { createSignal, type Signal } from '../../shared/server/index.ts';
import { startAttachmentSweep } from '../attachments/sweep.ts';
import type { Bff, BffDeps } from './deps.ts';
import { addBffGauges } from './gauges.ts';
import { startHousekeeping } from './housekeeping.ts';
import { createHttpApp } from './http-app.ts';
import { createBffSockets, type ClosedAccount } from './sockets.ts';
import { createSurfaceParts } from './surface-parts.ts';
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
  const { app, openApi, deskConversations } = createRoutes(deps, parts, accountClosed);
  const { conversations, publisher, erasure, relay, feed, webhooks, attachments } = pipeline;
  const sockets = createBffSockets({
    sql,
    sessions: access.sessions,
    conversations,
    publisher,
    logger,
    consumeCommand: limiters.consumeCommand,
    trustProxyHops,
    now,
    publicUrl: deps.publicUrl,
    redis: deps.redis,
    erasure,
    deskConversations,
    accountClosed,
  });
  const { housekeeping, attachmentSweep } = await startBackgroundWork(deps, parts);
  addBffGauges(metrics, sql, sockets);

  return {
    app,
    conversations,
    relay,
    feed,
    webhooks,
    housekeeping,
    attachments,
    metrics,
    openApi,
    attach: (server) => sockets.attach(server),
    async close() {
      housekeeping.stop();
      attachmentSweep.stop();
      await feed.stop();
      await relay.close();
      await webhooks.stop();
      await sockets.close();
    },
  };
}

/** The routes of every surface in one Koa app, with their OpenAPI document; the desk's conversations go on to the sockets. */
function createRoutes(deps: BffDeps, parts: SurfaceParts, accountClosed: Signal<ClosedAccount>) {
  const open = openSurface(deps, parts);
  const desk = clientApiSurface(deps, parts);
  const widget = widgetSurface(parts);
  const helpdesk = helpdeskSurfaces(deps, parts, (accountId, inboxIds) => accountClosed.emit({ accountId, inboxIds }));
  const surfaces = [widget, desk, helpdesk.signIn, helpdesk.platform, helpdesk.application];
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
  return { housekeeping, attachmentSweep };
}
