import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import { z } from 'zod';
import { verifyWebhook } from '../shared/index.ts';
import { readRawBody } from '../shared/server/index.ts';
import { answerDemoAction } from './actions.ts';

const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));
/** Where the engine posts a live customer's request for the demo store's action `name`. */
export const DEMO_ACTION_PATH = '/store/actions';
/** An action request is a small JSON event; anything larger is not one. */
const ACTION_REQUEST_LIMIT = 64 * 1024;

const escapeAttribute = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The part of the engine's `conversation.action_request` the store reads (SPEC "Actions"). */
const ActionRequest = z.object({
  type: z.literal('conversation.action_request'),
  data: z.object({ action: z.string(), inputs: z.record(z.string(), z.unknown()) }),
});

/** The action request in a verified body, or undefined when it is not one. */
function readActionRequest(raw: string): z.infer<typeof ActionRequest> | undefined {
  try {
    return ActionRequest.parse(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

/**
 * The demo storefront at `/`, with the widget's script tag and the demo's sandbox site key;
 * `/?key=live` uses the live key (DEMO_LIVE_SITE_KEY), which works only from its listed origins.
 * With `actionSecrets` (each live action's signing secret, by name) the store also runs its
 * actions for live customers at `POST /store/actions/{name}` (storeActionRoute).
 */
export function storefrontRouter(
  siteKey: string,
  liveSiteKey?: string,
  actionSecrets?: ReadonlyMap<string, string>,
): Router {
  const router = new Router();
  router.get('/', async (ctx) => {
    const template = await readFile(`${PAGES}storefront.html`, 'utf8');
    const key = ctx.query['key'] === 'live' && liveSiteKey ? liveSiteKey : siteKey;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = template.replaceAll('{{SITE_KEY}}', escapeAttribute(key));
  });
  if (actionSecrets) storeActionRoute(router, actionSecrets);
  return router;
}

/**
 * `POST /store/actions/{name}`: the demo store's own server answering the engine's signed request
 * for one of its actions, as a site's server would (SPEC "Verifying requests sent by the service"):
 * a request whose signature does not verify with that action's secret is refused with 401 and
 * nothing is looked up; the answer is the result the AI tells the customer from.
 */
function storeActionRoute(router: Router, actionSecrets: ReadonlyMap<string, string>): void {
  router.post(`${DEMO_ACTION_PATH}/:name`, async (ctx) => {
    const secret = actionSecrets.get(ctx.params['name'] ?? '');
    const raw = (await readRawBody(ctx, ACTION_REQUEST_LIMIT)).toString('utf8');
    const problem = secret
      ? await verifyWebhook(secret, ctx.get('x-service-timestamp'), ctx.get('x-service-signature'), raw, Date.now())
      : 'unknown_action';
    if (problem) {
      ctx.status = secret ? 401 : 404;
      ctx.body = { error: { code: secret ? 'unauthorized' : 'not_found', message: `refused: ${problem}` } };
      return;
    }
    const request = readActionRequest(raw);
    const result =
      request && request.data.action === ctx.params['name']
        ? answerDemoAction(request.data.action, request.data.inputs)
        : undefined;
    if (!result) {
      ctx.status = 400;
      ctx.body = { error: { code: 'invalid_request', message: 'Not an action request for this action.' } };
      return;
    }
    ctx.body = result;
  });
}
