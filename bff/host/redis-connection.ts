import { openRedis, type Logger, type Redis } from '../../shared/server/index.ts';

/** Redis as createBff takes it: the client, and the prefix of every key and stream the BFF puts there. */
export interface BffRedis {
  client: Redis;
  prefix: string;
}

/**
 * Connects to the Redis that several BFF nodes share (REDIS_URL). A lost connection is logged once
 * per outage, not once per failed reconnect (the client retries every 2 s at most, and keeps on).
 */
export async function openBffRedis(url: string, logger: Logger, prefix = 'parley:'): Promise<BffRedis> {
  let down = false;
  const onError = (error: Error) => {
    if (down) return;
    down = true;
    logger.warn({ err: error }, 'Redis connection problem; reconnecting');
  };
  const client = await openRedis(url, onError);
  client.on('ready', () => (down = false));
  return { client, prefix };
}
