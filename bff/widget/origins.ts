import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { liveOriginsOf, type Environment } from '../store/inboxes.ts';

/**
 * Where live credentials may be used from. A live site key works only from its own listed origins
 * (exact scheme, host and port). A live session works from any origin listed on its inbox's live
 * keys, and from the BFF's own origin (the hosted chat page). Sandbox credentials work anywhere.
 * A request with no Origin is refused for a live site key (browsers always send one on the
 * cross-origin calls the widget makes); a live session token without Origin comes from an app or
 * a server, where the token itself is the credential.
 */
export function assertSiteKeyOrigin(environment: Environment, allowedOrigins: readonly string[], origin: string): void {
  if (environment !== 'live') return;
  if (!origin || !allowedOrigins.includes(origin)) {
    throw new ParleyError(
      'origin_not_allowed',
      `This site key may not be used from ${origin || 'a request without an Origin'}.`,
    );
  }
}

export async function assertSessionOrigin(
  sql: Sql,
  session: { environment: Environment; inboxId: string },
  origin: string,
  ownOrigin: string,
): Promise<void> {
  if (session.environment !== 'live' || !origin || origin === ownOrigin) return;
  if (!(await liveOriginsOf(sql, session.inboxId)).includes(origin)) {
    throw new ParleyError('origin_not_allowed', `This session may not be used from ${origin}.`);
  }
}
