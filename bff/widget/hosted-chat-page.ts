import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { findSiteKey, isSiteKeyShape } from '../store/inboxes.ts';

// The one inline style of the page, allowed by its hash so that the policy needs no 'unsafe-inline'.
// The chat's own styles are constructable stylesheets in its shadow root, which CSP does not govern.
const PAGE_CSS = 'html,body{height:100%;margin:0}#parley-chat{height:100%;height:100dvh}';
const PAGE_CSS_HASH = `'sha256-${createHash('sha256').update(PAGE_CSS).digest('base64')}'`;

/**
 * What the page may do: its own scripts and its own server, nothing else. `connect-src 'self'`
 * covers ws:/wss: to the same host in CSP Level 3 (Chromium, Firefox), but older WebKit, which
 * iOS WebViews use, matched 'self' to http(s) only (gitlab-org/gitlab MR 70932), so the page's own
 * host is also listed with ws: and wss: for the chat's Socket.IO connection. Who may frame it:
 * with a live site key in the address (`/chat?site_key=pk_live_…`), only that key's listed origins
 * (none listed: no one); otherwise any site, as an app's page does — and then the page itself
 * refuses a live site key sent by postMessage while it is framed (widget/hosted/index.ts), so a
 * live key is never used from a frame its sites did not make.
 */
export function hostedChatCsp(host: string | undefined, framers: readonly string[] | '*' = '*'): string {
  const sockets = host === undefined ? '' : ` ws://${host} wss://${host}`;
  return [
    "default-src 'none'",
    "script-src 'self'",
    `connect-src 'self'${sockets}`,
    `style-src ${PAGE_CSS_HASH}`,
    "img-src 'self' data: blob:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${framers === '*' ? '*' : framers.length > 0 ? framers.join(' ') : "'none'"}`,
  ].join('; ');
}

// A Host header goes into the policy only when it is a plain host[:port], so it cannot add directives.
const PLAIN_HOST = /^([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;

/** The request's host for a page's policy (its WebSocket sources), or undefined when it is anything but a plain host[:port]. */
export const policyHost = (host: string): string | undefined => (PLAIN_HOST.test(host) ? host : undefined);

/**
 * Why a `/chat` address cannot open a chat, when the server can tell: the page says it in the
 * customer's language (widget/hosted/problem.ts reads this mark); the status says it to machines.
 */
type PageProblem = 'malformed_site_key' | 'unknown_site_key';

// The script is relative so that the page also works when the BFF is served under a path prefix.
const page = (problem?: PageProblem) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
    <meta name="color-scheme" content="light dark">${problem ? `\n    <meta name="parley-problem" content="${problem}">` : ''}
    <title>Chat</title>
    <style>${PAGE_CSS}</style>
    <script type="module" src="widget/chat.js"></script>
  </head>
  <body>
    <div id="parley-chat"></div>
    <noscript>The chat needs JavaScript.</noscript>
  </body>
</html>
`;

/**
 * `GET /chat`: the hosted full-page chat, for app WebViews and direct links. The page carries no
 * settings; its script (`/widget/chat.js`) takes them from the bridge (React Native or
 * postMessage) or a `site_key` in the query, and never a token from the URL.
 */
export function addHostedChatRoutes(routes: ApiRoutes, sql: Sql): void {
  routes.add(
    {
      method: 'get',
      path: '/chat',
      tag: 'Widget files',
      summary: 'The hosted full-page chat',
      description:
        "An HTML page for app WebViews, iframes and direct links (`/chat?site_key=pk_…`). A verified customer's token reaches it through the React Native bridge or postMessage, never in the URL.",
      responses: {
        200: { description: 'The page.', schema: z.string(), contentType: 'text/html' },
        400: {
          description: 'The page, saying that the `site_key` in the address is not one.',
          schema: z.string(),
          contentType: 'text/html',
        },
        404: {
          description: 'The page, saying that the `site_key` in the address is unknown or revoked.',
          schema: z.string(),
          contentType: 'text/html',
        },
      },
    },
    async (ctx) => {
      const named = ctx.query['site_key'];
      const key = typeof named === 'string' ? await findSiteKey(sql, named) : undefined;
      // A live key's page may be framed only by its own sites (an unknown or revoked one: by no one).
      const framers = typeof named === 'string' && named.startsWith('pk_live_') ? (key?.allowedOrigins ?? []) : '*';
      // Without a site_key the page stays a 200: an app's WebView and a framing page send theirs by
      // message, and the page's script tells a bare visit apart (widget/hosted/problem.ts).
      const problem: PageProblem | undefined =
        named === undefined || key
          ? undefined
          : typeof named !== 'string' || !isSiteKeyShape(named)
            ? 'malformed_site_key'
            : 'unknown_site_key';
      ctx.status = problem === 'malformed_site_key' ? 400 : problem === 'unknown_site_key' ? 404 : 200;
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Content-Security-Policy', hostedChatCsp(policyHost(ctx.host), framers));
      // The page's address may carry a site key; it goes nowhere else.
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = page(problem);
    },
  );
}
