import { createSignal, openSecretBox } from '../../shared/server/index.ts';
import { EngineKeys } from '../engine-link/engine-keys.ts';
import { startAttachmentSweep } from '../attachments/sweep.ts';
import type { Bff, BffDeps } from './deps.ts';
import { createEngineAccess } from './engine-access.ts';
import { addBffGauges } from './gauges.ts';
import { startHousekeeping } from './housekeeping.ts';
import { createHttpApp } from './http-app.ts';
import { createLimiters } from './limiters.ts';
import { createMessagePipeline } from './message-pipeline.ts';
import { Metrics } from './metrics.ts';
import { createBffSockets, type ClosedAccount } from './sockets.ts';
import { prepareStore } from './store-preparation.ts';
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
  const { sql, logger, now = () => new Date(), trustProxyHops = 0 } = deps;
  const installation = new EngineKeys(deps.engine);
  const secrets = deps.secrets ?? openSecretBox(undefined, 'memory://');
  await prepareStore(sql, installation.first.environment, secrets, logger);
  const access = await createEngineAccess({
    sql,
    secrets,
    installation,
    tokens: deps.tokens,
    defaultInboxId: deps.defaultInboxId,
    logger,
    now,
  });
  const metrics = deps.metrics ?? new Metrics();
  const limiters = createLimiters({
    logger,
    metrics,
    now,
    redis: deps.redis,
    siteKeyLimiter: deps.siteKeyLimiter,
    widgetLimiter: deps.widgetLimiter,
  });
  const webhookSecrets = [deps.engineWebhookSecret ?? []].flat();
  const webhookPolicy = { allowedPrivateOrigins: deps.deskWebhooks?.allowedPrivateOrigins ?? [] };
  const { engines, sessions } = access;
  const { floodLimiter, consumeCommand } = limiters;
  const engineWebhooks = webhookSecrets.length > 0;
  const pipeline = createMessagePipeline({
    sql,
    logger,
    now,
    secrets,
    engines,
    metrics,
    floodLimiter,
    webhookPolicy,
    engineWebhooks,
    settings: deps,
  });
  const parts: SurfaceParts = {
    sql,
    logger,
    now,
    secrets,
    trustProxyHops,
    installation,
    access,
    limiters,
    metrics,
    pipeline,
    webhookPolicy,
    webhookSecrets,
  };
  const open = openSurface(deps, parts);
  const desk = clientApiSurface(deps, parts);
  const widget = widgetSurface(parts);
  // Everyone connected to an account the operator suspends or deletes is disconnected (the sockets listen, on every node through the adapter).
  const accountClosed = createSignal<ClosedAccount>();
  const helpdesk = helpdeskSurfaces(deps, parts, (accountId, inboxIds) => accountClosed.emit({ accountId, inboxIds }));
  const surfaces = [widget, desk, helpdesk.signIn, helpdesk.platform, helpdesk.application];
  const { app, openApi } = createHttpApp({
    open,
    surfaces,
    extraRouters: deps.extraRouters ?? [],
    metrics,
    logger,
    trustProxyHops,
  });
  const { conversations, publisher, erasure, relay, feed, webhooks, attachments } = pipeline;
  const { deskConversations } = helpdesk;
  const { publicUrl, redis } = deps;
  const sockets = createBffSockets({
    sql,
    sessions,
    conversations,
    publisher,
    logger,
    consumeCommand,
    trustProxyHops,
    now,
    publicUrl,
    redis,
    erasure,
    deskConversations,
    accountClosed,
  });
  await relay.resume();
  feed.start();
  const webhookPollMs = deps.deskWebhooks?.pollMs ?? 1000;
  if (webhookPollMs > 0) webhooks.start(webhookPollMs);
  const housekeeping = startHousekeeping({ sql, logger, now }, deps.housekeepingMs);
  const attachmentSweep = startAttachmentSweep(attachments, logger, deps.housekeepingMs);
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
