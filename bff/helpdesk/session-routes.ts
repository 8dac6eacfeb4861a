import { ParleyError } from '../../shared/index.ts';
import { clientLimitKey, type ApiRoutes, type RateLimiter, type Sql } from '../../shared/server/index.ts';
import { endSession, type OnAccessChanged } from './store/credentials.ts';
import { TOKEN_HEADER } from './auth.ts';
import type { HelpdeskService } from './helpdesk-service.ts';
import { Session, SessionCreate } from '../../shared/schemas/helpdesk/index.ts';

/** Sign-in attempts per client address per minute (a password is guessed slowly or not at all). */
export const SIGN_INS_PER_MINUTE = 10;

/**
 * Signing in to the agent console: with a one-time link from the Platform API, or with e-mail and
 * password. The answer is a session token for the Application API (in `api_access_token`) that
 * expires after 12 hours; signing out ends it.
 */
export function addSessionSignInRoutes(
  routes: ApiRoutes,
  {
    sql,
    helpdesk,
    limiter,
    trustProxyHops,
    now,
    onAccessChanged,
  }: {
    sql: Sql;
    helpdesk: HelpdeskService;
    limiter: RateLimiter;
    trustProxyHops: number;
    now: () => Date;
    onAccessChanged: OnAccessChanged;
  },
): void {
  routes
    .add(
      {
        method: 'post',
        path: '/api/v1/sessions',
        tag: 'Application API',
        summary: 'Sign in: a one-time link token, or e-mail and password',
        description: `At most ${SIGN_INS_PER_MINUTE} attempts a minute from one address.`,
        body: SessionCreate,
        responses: {
          200: { description: 'A session: its access token (for api_access_token) and the person.', schema: Session },
        },
        errors: ['unauthorized', 'unprocessable', 'rate_limited'],
      },
      async (ctx, { body }) => {
        const decision = await limiter.consume(
          `sign-in:${clientLimitKey(ctx.req, trustProxyHops)}`,
          SIGN_INS_PER_MINUTE,
          now(),
        );
        if (!decision.allowed)
          throw new ParleyError(
            'rate_limited',
            `At most ${SIGN_INS_PER_MINUTE} sign-in attempts a minute from one address.`,
          );
        ctx.body = await helpdesk.signIn(body);
      },
    )
    .add(
      {
        method: 'delete',
        path: '/api/v1/sessions/current',
        tag: 'Application API',
        security: 'accessToken',
        summary: 'Sign out: the session token stops working',
        responses: { 200: { description: 'Done (empty body).' } },
      },
      async (ctx) => {
        const token = ctx.get(TOKEN_HEADER);
        const userId = token && token.length <= 200 ? await endSession(sql, token) : undefined;
        // The consoles open with this session close with it.
        if (userId !== undefined) onAccessChanged({ kind: 'user', id: userId });
        ctx.body = '';
      },
    );
}
