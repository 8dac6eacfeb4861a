import { z } from 'zod';
import type { ApiRoutes } from '../../shared/server/index.ts';
import { policyHost } from '../widget/hosted-chat-page.ts';
import { scriptSender } from '../widget/asset-routes.ts';

/**
 * What the console page may do: its own script, its own server (HTTP and the `/desk` socket),
 * nothing else; no other site may frame it (a person's session is behind it). Its styles are a
 * constructable stylesheet, which needs no style-src. Customers' photos show from `blob:`
 * addresses the console makes of the bytes it read with the session's token.
 */
export function consoleCsp(host: string | undefined): string {
  const sockets = host === undefined ? '' : ` ws://${host} wss://${host}`;
  return [
    "default-src 'none'",
    "script-src 'self'",
    `connect-src 'self'${sockets}`,
    "img-src 'self' data: blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

// The script is relative so that the console also works under a path prefix.
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <meta name="referrer" content="no-referrer">
    <title>Parley · Conversations</title>
    <script type="module" src="console.js"></script>
  </head>
  <body>
    <div id="console"></div>
    <noscript>The console needs JavaScript.</noscript>
  </body>
</html>
`;

/**
 * `GET /console/`: the agent console, a page and its script (`/console/console.js`), built by
 * `vite build --mode console` into `assetsDir`. Everything it does goes through the Application API
 * and the `/desk` socket; the page itself holds nothing.
 */
export function addConsoleRoutes(routes: ApiRoutes, assetsDir: string): void {
  const send = scriptSender(assetsDir, 'console');
  const html = { description: 'The page.', schema: z.string(), contentType: 'text/html' };
  routes
    .add(
      {
        method: 'get',
        path: '/console',
        tag: 'Agent console',
        summary: 'The agent console (redirects to /console/)',
        responses: { 302: { description: 'To /console/.' } },
      },
      (ctx) => {
        ctx.redirect('/console/');
      },
    )
    .add(
      {
        method: 'get',
        path: '/console/',
        tag: 'Agent console',
        summary: 'The agent console',
        responses: { 200: html },
      },
      (ctx) => {
        ctx.type = 'text/html; charset=utf-8';
        ctx.set('Content-Security-Policy', consoleCsp(policyHost(ctx.host)));
        ctx.set('X-Frame-Options', 'DENY');
        ctx.set('Referrer-Policy', 'no-referrer');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Cache-Control', 'no-cache');
        ctx.body = PAGE;
      },
    )
    .add(
      {
        method: 'get',
        path: '/console/:file',
        tag: 'Agent console',
        summary: "The console's script",
        params: z.strictObject({ file: z.string().max(100) }),
        responses: { 200: { description: 'The script.', schema: z.string(), contentType: 'application/javascript' } },
        errors: ['not_found'],
      },
      (ctx, { params }) => send(ctx, params.file, 300, false),
    );
}
