/**
 * The first stages of `createBff`, in dependency order: the store made ready, engine access and
 * widget sessions, the rate limits and the message pipeline — the parts every surface is built on.
 */
import { openSecretBox } from '../../shared/server/index.ts';
import { EngineKeys } from '../engine-link/engine-keys.ts';
import type { BffDeps } from './deps.ts';
import { createEngineAccess } from './engine-access.ts';
import { createLimiters } from './limiters.ts';
import { createMessagePipeline } from './message-pipeline.ts';
import { Metrics } from './metrics.ts';
import { prepareStore } from './store-preparation.ts';
import type { SurfaceParts } from './surfaces.ts';

/** Builds the parts of `SurfaceParts` from a host's settings, migrating the store first. */
export async function createSurfaceParts(deps: BffDeps): Promise<SurfaceParts> {
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
  const pipeline = createMessagePipeline({
    sql,
    logger,
    now,
    secrets,
    engines: access.engines,
    metrics,
    floodLimiter: limiters.floodLimiter,
    webhookPolicy,
    engineWebhooks: webhookSecrets.length > 0,
    settings: deps,
  });
  return {
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
}
