import { ParleyError, randomToken } from '../../shared/index.ts';
import {
  Action,
  ActionList,
  ActionParams,
  PutActionRequest,
  PutActionResponse,
} from '../../shared/schemas/engine-actions.ts';
import {
  checkEndpointAddress,
  checkEndpointHost,
  checkEndpointUrl,
  isPrivateException,
  type ApiRoutes,
  type SecretBox,
  type Sql,
  type TargetPolicy,
} from '../../shared/server/index.ts';
import { actionView, definitionOf } from '../actions/action-definitions.ts';
import type { EngineState } from '../auth.ts';
import {
  ACTIONS_MAX,
  deleteAction,
  findAction,
  listActionRows,
  promoteAction,
  putAction,
  type ActionRow,
} from '../store/actions.ts';
import type { Caller } from '../store/environment.ts';
import { requireLiveKey } from './live-key.ts';

const tag = 'Actions';
const security = 'apiKey';
const params = ActionParams;

/**
 * Refuses an action URL the engine may never call, with the webhooks' rules (SPEC "Webhook
 * delivery" rule 1): https (an allowed private origin may use http), no user name, and no private
 * address, checked now and again at every connection.
 */
async function checkActionUrl(raw: string, policy: TargetPolicy): Promise<string> {
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !isPrivateException(url, policy.allowedPrivateOrigins)) {
    throw new ParleyError('invalid_request', "An action's URL must use https: it is called for live customers.");
  }
  try {
    checkEndpointUrl(raw, 'live', policy);
    checkEndpointHost(url, policy);
    await checkEndpointAddress(url, policy);
  } catch (error) {
    if (error instanceof ParleyError)
      throw new ParleyError('invalid_request', `The action URL is refused, as a webhook's would be: ${error.message}`);
    throw error;
  }
  return url.href;
}

/** A sandbox key may not reach what live customers' requests are posted to, nor its secret. */
function refuseSandboxOnUrl(caller: Caller, what: string): void {
  if (caller.environment !== 'live') {
    throw new ParleyError(
      'forbidden',
      `${what}: an action with a URL is managed with a live key (service_live_…), since live customers' requests are posted to it, signed with its secret.`,
    );
  }
}

interface ActionRouteDeps {
  sql: Sql;
  now: () => Date;
  policy: TargetPolicy;
  secrets: SecretBox;
}

async function foundAction(sql: Sql, caller: Caller, name: string): Promise<ActionRow> {
  const row = await findAction(sql, caller, name);
  if (!row) throw new ParleyError('not_found', `No action ${name} for this key.`);
  return row;
}

/** Defines or replaces the action `name`; its secret is in the answer only when it is new. */
async function defineAction(
  { sql, now, policy, secrets }: ActionRouteDeps,
  caller: Caller,
  name: string,
  body: PutActionRequest,
): Promise<{ created: boolean; action: PutActionResponse }> {
  const existing = await findAction(sql, caller, name);
  if (existing?.url || body.url || body.rotate_secret)
    refuseSandboxOnUrl(caller, `The action ${name} has or is given a URL`);
  const url = body.url ? await checkActionUrl(body.url, policy) : null;
  if (body.rotate_secret && !url)
    throw new ParleyError('invalid_request', 'rotate_secret needs a url: the secret signs the requests posted to it.');
  // The secret stays with the action while it has a URL; a new one comes with its first URL, or when asked for.
  const secret = url && (!existing?.secret || body.rotate_secret) ? `whsec_${randomToken(32)}` : undefined;
  const sealedSecret = url ? (secret ? secrets.seal(secret) : existing!.secret) : null;
  const { row, created } = await sql.transaction((tx) =>
    putAction(tx, caller, definitionOf(name, body), { url, sealedSecret }, now()),
  );
  return { created, action: { ...actionView(row), ...(secret ? { secret } : {}) } };
}

/**
 * `/v1/actions`: what the AI may ask the site's server to do. Actions belong to the key's
 * environment (a sandbox key neither reads nor changes a live one: not found); only a live action
 * has a URL, and a live key copies a sandbox action to live (`POST /v1/actions/{name}/promote`).
 */
export function addActionRoutes(routes: ApiRoutes<EngineState>, deps: ActionRouteDeps): void {
  addActionReadRoutes(routes, deps);
  addActionWriteRoutes(routes, deps);
  addActionPromotionRoute(routes, deps);
}

/** Reading the account's actions: all of them, or one. */
function addActionReadRoutes(routes: ApiRoutes<EngineState>, { sql }: ActionRouteDeps): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/actions',
        tag,
        security,
        summary: "The environment's actions",
        description: `Every action of the key's environment, by name (an account defines at most ${ACTIONS_MAX} in each).`,
        responses: { 200: { description: 'The actions.', schema: ActionList } },
      },
      async (ctx) => {
        ctx.body = { actions: (await listActionRows(sql, ctx.state.caller)).map(actionView) };
      },
    )
    .add(
      {
        method: 'get',
        path: '/v1/actions/:name',
        tag,
        security,
        summary: 'One action',
        params,
        responses: { 200: { description: 'The action, without its secret.', schema: Action } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        ctx.body = actionView(await foundAction(sql, ctx.state.caller, params.name));
      },
    );
}

/** Defining, replacing and deleting an action (its URL with a live key only). */
function addActionWriteRoutes(routes: ApiRoutes<EngineState>, deps: ActionRouteDeps): void {
  const { sql } = deps;
  routes
    .add(
      {
        method: 'put',
        path: '/v1/actions/:name',
        tag,
        security,
        summary: 'Define or replace an action',
        description: [
          'The whole action: what it does, its inputs as JSON Schema (an object of string properties, each with a description and a pattern; x-ask is the question for a missing one), when the retrieval brain asks for it (triggers), how the AI tells a success (reply, card), and optionally a live URL.',
          "With a URL, a live customer's action request is posted there (the event as the feed has it, with environment and customer_ref), signed as webhooks are (X-Service-Timestamp, X-Service-Signature) with the action's secret; X-Service-Delivery-Id is the action request's id. A JSON object answered with a 2xx within 10 s is the result; anything else makes the action fail, and the AI says so. The secret is in the answer that first gives the action a URL (and with rotate_secret) only.",
          "The action belongs to the key's environment. Sandbox customers never reach a URL: a sandbox fixture runs the action, or without one your server does (action-results). Only a live key sets, changes or removes a URL.",
        ].join(' '),
        params,
        body: PutActionRequest,
        responses: {
          200: { description: 'The action, replaced.', schema: PutActionResponse },
          201: { description: 'The action, defined.', schema: PutActionResponse },
        },
        errors: ['forbidden', 'unprocessable'],
      },
      async (ctx, { params, body }) => {
        const { created, action } = await defineAction(deps, ctx.state.caller, params.name, body);
        ctx.status = created ? 201 : 200;
        ctx.body = action;
      },
    )
    .add(
      {
        method: 'delete',
        path: '/v1/actions/:name',
        tag,
        security,
        summary: 'Delete an action',
        description:
          "The key's environment's customers' AI no longer asks for it; a sandbox action's fixture goes with it.",
        params,
        responses: { 204: { description: 'Deleted.' } },
        errors: ['not_found', 'forbidden'],
      },
      async (ctx, { params }) => {
        const { caller } = ctx.state;
        await foundAction(sql, caller, params.name);
        await deleteAction(sql, caller, params.name);
        ctx.status = 204;
      },
    );
}

/** `POST /v1/actions/{name}/promote`: a live key copies a sandbox action to live. */
function addActionPromotionRoute(routes: ApiRoutes<EngineState>, { sql, now }: ActionRouteDeps): void {
  routes.add(
    {
      method: 'post',
      path: '/v1/actions/:name/promote',
      tag,
      security,
      summary: 'Copy a sandbox action to live',
      description: `Live keys only. The sandbox action's definition becomes the live action of that name (added within the ${ACTIONS_MAX}, or replacing its definition); a URL and secret the live action has stay. Live customers' AI asks for it from the next message on.`,
      params,
      responses: {
        200: { description: 'The live action, replaced.', schema: Action },
        201: { description: 'The live action, added.', schema: Action },
      },
      errors: ['forbidden', 'not_found', 'unprocessable'],
    },
    async (ctx, { params }) => {
      const { caller } = ctx.state;
      requireLiveKey(caller, 'Promoting an action to live');
      const { row, created } = await sql.transaction((tx) => promoteAction(tx, caller.accountId, params.name, now()));
      ctx.status = created ? 201 : 200;
      ctx.body = actionView(row);
    },
  );
}
