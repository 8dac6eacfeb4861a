import { ParleyError } from '../../shared/index.ts';
import { clientLimitKey, type ApiRoutes, type RateLimiter, type Sql } from '../../shared/server/index.ts';
import { endSession, type OnAccessChanged } from './store/credentials.ts';
import { TOKEN_HEADER } from './auth.ts';
import { clearSessionCookie, CSRF_HEADER, sessionFromCookie, setSessionCookie } from './session-cookie.ts';
import { resumeSession, SESSION_TTL_MS } from './sign-in-service.ts';
import type { HelpdeskService } from './helpdesk-service.ts';
import { Session, SessionCreate } from '../../shared/schemas/helpdesk/index.ts';

/** Sign-in attempts per client address per minute (a password is guessed slowly or not at all). */
export const SIGN_INS_PER_MINUTE = 10;

/**
 * Signing in to the agent console: with a one-time link from the Platform API, or with e-mail and
 * password. The answer is a session token for the Application API (in `api_access_token`) that
 * expires after 30 days unused; the browser keeps it in an HttpOnly cookie (`session-cookie.ts`) so
 * that a new tab or a reload resumes it. Signing out ends it everywhere.
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
        const session = await helpdesk.signIn(body);
        setSessionCookie(ctx, session.access_token, SESSION_TTL_MS);
        ctx.body = session;
      },
    )
    .add(
      {
        method: 'delete',
        path: '/api/v1/sessions/current',
        tag: 'Application API',
        security: 'accessToken',
        summary: 'Sign out: the session token stops working',
        description: `The session of api_access_token, or of the session cookie (with the header ${CSRF_HEADER}: 1).`,
        responses: { 200: { description: 'Done (empty body).' } },
        errors: ['forbidden'],
      },
      async (ctx) => {
        const token = ctx.get(TOKEN_HEADER) || sessionFromCookie(ctx);
        clearSessionCookie(ctx);
        const userId = token && token.length <= 200 ? await endSession(sql, token) : undefined;
        // The consoles open with this session close with it.
        if (userId !== undefined) onAccessChanged({ kind: 'user', id: userId });
        ctx.body = '';
      },
    );
  addSessionResumeRoute(routes, sql, now);
}

/** `POST /api/v1/sessions/resume`: the session of the cookie again, for a new tab or a reload (30 more days). */
function addSessionResumeRoute(routes: ApiRoutes, sql: Sql, now: () => Date): void {
  routes.add(
    {
      method: 'post',
      path: '/api/v1/sessions/resume',
      tag: 'Application API',
      summary: "Resume the console's session from its cookie (a new tab, a reload)",
      description:
        `Needs the HttpOnly session cookie that signing in set, and the header ${CSRF_HEADER}: 1 ` +
        '(a page of another site cannot send it). The session lasts another 30 days from now.',
      responses: { 200: { description: 'The session, as signing in answers it.', schema: Session } },
      errors: ['unauthorized', 'forbidden'],
    },
    async (ctx) => {
      const token = sessionFromCookie(ctx);
      if (!token) throw new ParleyError('unauthorized', 'There is no session to resume: sign in.');
      const session = await resumeSession(sql, now, token).catch((error: unknown) => {
        clearSessionCookie(ctx);
        throw error;
      });
      setSessionCookie(ctx, token, SESSION_TTL_MS);
      ctx.body = session;
    },
  );
}
