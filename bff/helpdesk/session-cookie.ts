import type { Context } from 'koa';
import { ParleyError } from '../../shared/index.ts';

/**
 * The console's session kept by the browser: an HttpOnly cookie (no script reads it), sent only to
 * `/api/v1/sessions` (SameSite=Strict: never from another site; Secure on https). It serves only to
 * resume the session in a new tab or after a reload and to sign out; every other route takes the
 * token in `api_access_token`, so a cookie never authorises them and they need no CSRF guard.
 */
export const SESSION_COOKIE = 'parley_session';
const COOKIE_PATH = '/api/v1/sessions';
/** The header a cookie-authenticated request must carry: a page of another site cannot send it without a CORS preflight, which is never granted. */
export const CSRF_HEADER = 'x-parley-console';

export function setSessionCookie(ctx: Context, token: string, maxAgeMs: number): void {
  ctx.cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.secure,
    path: COOKIE_PATH,
    maxAge: maxAgeMs,
    overwrite: true,
  });
}

export function clearSessionCookie(ctx: Context): void {
  ctx.cookies.set(SESSION_COOKIE, '', {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.secure,
    path: COOKIE_PATH,
    maxAge: 0,
  });
}

/**
 * The session token of the cookie, for a request that is the console's own: it carries the CSRF
 * header and, when the browser says where it comes from, comes from this very host. Undefined
 * when there is no cookie.
 */
export function sessionFromCookie(ctx: Context): string | undefined {
  const token = ctx.cookies.get(SESSION_COOKIE);
  if (!token) return undefined;
  const origin = ctx.get('origin');
  // The page's own origin, from the request (not ctx.origin, which the app may set from the Origin header).
  if (ctx.get(CSRF_HEADER) !== '1' || (origin && origin !== `${ctx.protocol}://${ctx.host}`))
    throw new ParleyError(
      'forbidden',
      `A request with the session cookie must come from the console (the ${CSRF_HEADER} header).`,
    );
  return token.length <= 200 ? token : undefined;
}
