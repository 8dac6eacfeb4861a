import type { Middleware } from 'koa';
import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { findInboxByIdentifier } from '../store/inboxes.ts';

const INBOX_PATH = /^\/public\/api\/v1\/inboxes\/([^/]+)/;

/**
 * CORS on the Client API follows the inbox's allowlist when it has one, and is open otherwise: a
 * browser request from an origin the inbox does not list is refused (and, by crossOrigin, gets no
 * Access-Control-Allow-Origin). Requests without an Origin (servers, apps) are not browsers' and pass.
 */
export function clientApiOrigins(sql: Sql): Middleware {
  return async (ctx, next) => {
    const origin = ctx.get('origin');
    const identifier = INBOX_PATH.exec(ctx.path)?.[1];
    if (origin && identifier) {
      const inbox = await findInboxByIdentifier(sql, decodeURIComponent(identifier));
      if (inbox && inbox.clientApiOrigins.length > 0 && !inbox.clientApiOrigins.includes(origin)) {
        throw new ParleyError('origin_not_allowed', `This inbox may not be used from ${origin}.`);
      }
    }
    await next();
  };
}
