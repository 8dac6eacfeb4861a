import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';

const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));

const escapeAttribute = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The demo storefront at `/`, with the widget's script tag and the demo's sandbox site key;
 * `/?key=live` uses the live key (DEMO_LIVE_SITE_KEY), which works only from its listed origins.
 */
export function storefrontRouter(siteKey: string, liveSiteKey?: string): Router {
  const router = new Router();
  router.get('/', async (ctx) => {
    const template = await readFile(`${PAGES}storefront.html`, 'utf8');
    const key = ctx.query['key'] === 'live' && liveSiteKey ? liveSiteKey : siteKey;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = template.replaceAll('{{SITE_KEY}}', escapeAttribute(key));
  });
  return router;
}
