import Router from '@koa/router';

/**
 * The shop's page at `/` of the test stack's BFF: a page of a site that embeds the widget with its
 * site key, as a shop's own page does. Browser tests open it; tests that need a page of their own
 * (another origin, other attributes) use `hostPage` of test/browser/widget-helpers.ts instead.
 */
export function shopPageRouter(siteKey: string): Router {
  const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Test shop</title>
  </head>
  <body>
    <header><strong>Test shop</strong></header>
    <main>
      <h1>Well-made things for every day</h1>
      <p>Free delivery over 50 euros. Returns within 30 days. Questions? Use the chat in the corner.</p>
    </main>
    <script src="/widget.js" data-site-key="${siteKey}" async></script>
  </body>
</html>
`;
  const router = new Router();
  router.get('/', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page;
  });
  return router;
}
