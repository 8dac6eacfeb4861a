import type { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import { z } from 'zod';
import type { ApiRoutes } from '../../shared/server/index.ts';
import type { PlatformState } from './auth.ts';
import type { HelpdeskService } from './helpdesk-service.ts';
import {
  AccountParams,
  AccountUser,
  AccountUserCreate,
  AccountUserDelete,
  AgentBot,
  AgentBotCreate,
  AgentBotUpdate,
  IdParams,
  PlatformAccount,
  PlatformAccountCreate,
  PlatformAccountUpdate,
  SignInLink,
  User,
  UserCreate,
  UserUpdate,
} from '../../shared/schemas/helpdesk/index.ts';

const tag = 'Platform API';
const security = 'platformToken';
const base = '/platform/api/v1';
const empty = { 200: { description: 'Done (empty body).' } };
const errors = ['unauthorized', 'not_found', 'unprocessable'] as const;

/** Accounts, each with an engine account of its own. */
function addAccountRoutes(routes: ApiRoutes<PlatformState>, helpdesk: HelpdeskService): void {
  routes
    .add(
      {
        method: 'post',
        path: `${base}/accounts`,
        tag,
        security,
        summary: 'Create an account, with an engine account of its own',
        description:
          "The account's engine account (a key per environment) is made at the engine first: without the BFF's AI_OPERATOR_TOKEN the answer is 503 not_configured, and while the engine cannot be reached 503 upstream_unavailable; either way nothing is made.",
        body: PlatformAccountCreate,
        responses: { 200: { description: 'The account.', schema: PlatformAccount } },
        errors: [...errors, 'not_configured', 'upstream_unavailable'],
      },
      async (ctx, { body }) => {
        ctx.body = await helpdesk.createAccount(ctx.state.platformTokenId, ctx.state.actor, body);
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/accounts/:account_id`,
        tag,
        security,
        summary: 'An account',
        params: AccountParams,
        responses: { 200: { description: 'The account.', schema: PlatformAccount } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        ctx.body = await helpdesk.getAccount(ctx.state.platformTokenId, params.account_id);
      },
    )
    .add(
      {
        method: 'patch',
        path: `${base}/accounts/:account_id`,
        tag,
        security,
        summary: 'Change an account',
        description:
          "status suspended refuses the account's people, Client API, site keys, sessions and engine keys with 403 account_suspended at once (and closes their sockets), until status active.",
        params: AccountParams,
        body: PlatformAccountUpdate,
        responses: { 200: { description: 'The account.', schema: PlatformAccount } },
        errors: [...errors, 'not_configured', 'upstream_unavailable'],
      },
      async (ctx, { params, body }) => {
        ctx.body = await helpdesk.patchAccount(ctx.state.platformTokenId, ctx.state.actor, params.account_id, body);
      },
    )
    .add(
      {
        method: 'delete',
        path: `${base}/accounts/:account_id`,
        tag,
        security,
        summary: 'Delete an account and everything in it, its engine account included',
        params: AccountParams,
        responses: empty,
        errors: [...errors, 'not_configured', 'upstream_unavailable'],
      },
      async (ctx, { params }) => {
        await helpdesk.deleteAccount(ctx.state.platformTokenId, params.account_id);
        ctx.body = '';
      },
    );
}

/** An account's people and their roles. */
function addAccountUserRoutes(routes: ApiRoutes<PlatformState>, helpdesk: HelpdeskService): void {
  routes
    .add(
      {
        method: 'get',
        path: `${base}/accounts/:account_id/account_users`,
        tag,
        security,
        summary: "The account's people and their roles",
        params: AccountParams,
        responses: { 200: { description: 'The account users.', schema: z.array(AccountUser) } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        ctx.body = await helpdesk.listAccountUsers(ctx.state.platformTokenId, params.account_id);
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/accounts/:account_id/account_users`,
        tag,
        security,
        summary: 'Add a user to the account (or change their role)',
        params: AccountParams,
        body: AccountUserCreate,
        responses: { 200: { description: 'The account user.', schema: AccountUser } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        ctx.body = await helpdesk.addAccountUser(
          ctx.state.platformTokenId,
          ctx.state.actor,
          params.account_id,
          body.user_id,
          body.role,
        );
      },
    )
    .add(
      {
        method: 'delete',
        path: `${base}/accounts/:account_id/account_users`,
        tag,
        security,
        summary: 'Remove a user from the account',
        params: AccountParams,
        body: AccountUserDelete,
        responses: empty,
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await helpdesk.removeAccountUser(ctx.state.platformTokenId, ctx.state.actor, params.account_id, body.user_id);
        ctx.body = '';
      },
    );
}

/** The installation's agent bots. */
function addAgentBotRoutes(routes: ApiRoutes<PlatformState>, helpdesk: HelpdeskService): void {
  routes
    .add(
      {
        method: 'get',
        path: `${base}/agent_bots`,
        tag,
        security,
        summary: "The installation's agent bots",
        responses: { 200: { description: 'The agent bots.', schema: z.array(AgentBot) } },
        errors: ['unauthorized'],
      },
      async (ctx) => {
        ctx.body = await helpdesk.listPlatformBots(ctx.state.platformTokenId);
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/agent_bots`,
        tag,
        security,
        summary: 'Create an agent bot (its access_token is in this answer only)',
        body: AgentBotCreate,
        responses: { 200: { description: 'The agent bot.', schema: AgentBot } },
        errors: [...errors],
      },
      async (ctx, { body }) => {
        ctx.body = await helpdesk.createPlatformBot(ctx.state.platformTokenId, body);
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/agent_bots/:id`,
        tag,
        security,
        summary: 'An agent bot',
        params: IdParams,
        responses: { 200: { description: 'The agent bot.', schema: AgentBot } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        ctx.body = await helpdesk.getPlatformBot(ctx.state.platformTokenId, params.id);
      },
    )
    .add(
      {
        method: 'patch',
        path: `${base}/agent_bots/:id`,
        tag,
        security,
        summary: 'Change an agent bot',
        params: IdParams,
        body: AgentBotUpdate,
        responses: { 200: { description: 'The agent bot.', schema: AgentBot } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        ctx.body = await helpdesk.patchPlatformBot(ctx.state.platformTokenId, params.id, body);
      },
    )
    .add(
      {
        method: 'delete',
        path: `${base}/agent_bots/:id`,
        tag,
        security,
        summary: 'Delete an agent bot',
        params: IdParams,
        responses: empty,
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await helpdesk.deletePlatformBot(ctx.state.platformTokenId, params.id);
        ctx.body = '';
      },
    );
}

/** Users of the installation. */
function addUserRoutes(routes: ApiRoutes<PlatformState>, helpdesk: HelpdeskService): void {
  routes
    .add(
      {
        method: 'post',
        path: `${base}/users`,
        tag,
        security,
        summary: 'Create a user (its access_token is in this answer only)',
        body: UserCreate,
        responses: { 200: { description: 'The user.', schema: User } },
        errors: [...errors],
      },
      async (ctx, { body }) => {
        ctx.body = await helpdesk.createUser(ctx.state.platformTokenId, body);
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/users/:id`,
        tag,
        security,
        summary: 'A user',
        params: IdParams,
        responses: { 200: { description: 'The user.', schema: User } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        ctx.body = await helpdesk.getUser(ctx.state.platformTokenId, params.id);
      },
    )
    .add(
      {
        method: 'patch',
        path: `${base}/users/:id`,
        tag,
        security,
        summary: 'Change a user',
        params: IdParams,
        body: UserUpdate,
        responses: { 200: { description: 'The user.', schema: User } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        ctx.body = await helpdesk.patchUser(ctx.state.platformTokenId, params.id, body);
      },
    )
    .add(
      {
        method: 'delete',
        path: `${base}/users/:id`,
        tag,
        security,
        summary: 'Delete a user',
        params: IdParams,
        responses: empty,
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await helpdesk.deleteUser(ctx.state.platformTokenId, params.id);
        ctx.body = '';
      },
    );
}

/**
 * The address this server was reached on, from its own socket: never from `Host` or
 * `X-Forwarded-Host`, which whoever sends the request chooses (a link to their own site would
 * carry the sign-in token there). Behind a proxy, PUBLIC_URL names the public address instead.
 */
export function ownOrigin(req: IncomingMessage): string {
  const { localAddress, localPort } = req.socket;
  const host = localAddress?.includes(':') ? `[${localAddress}]` : (localAddress ?? '127.0.0.1');
  return `${req.socket instanceof TLSSocket ? 'https' : 'http'}://${host}:${localPort}`;
}

/** A one-time sign-in link to the agent console for a user. */
function addSignInLinkRoute(
  routes: ApiRoutes<PlatformState>,
  helpdesk: HelpdeskService,
  baseUrl: (origin: string) => string,
): void {
  routes.add(
    {
      method: 'get',
      path: `${base}/users/:id/login`,
      tag,
      security,
      summary: 'A one-time sign-in link to the agent console',
      description:
        'Valid for 5 minutes and for one sign-in; the token is in the URL fragment, which browsers do not send to servers.',
      params: IdParams,
      responses: { 200: { description: 'The link.', schema: SignInLink } },
      errors: [...errors],
    },
    async (ctx, { params }) => {
      ctx.body = await helpdesk.signInLink(ctx.state.platformTokenId, params.id, baseUrl(ownOrigin(ctx.req)));
    },
  );
}

/**
 * The helpdesk Platform API (SPEC "Helpdesk Platform API"): accounts, their people, users and the
 * installation's agent bots, for the operator. The platform token reaches what it created.
 */
export function addPlatformRoutes(
  routes: ApiRoutes<PlatformState>,
  helpdesk: HelpdeskService,
  baseUrl: (origin: string) => string,
): void {
  addAccountRoutes(routes, helpdesk);
  addAccountUserRoutes(routes, helpdesk);
  addAgentBotRoutes(routes, helpdesk);
  addUserRoutes(routes, helpdesk);
  addSignInLinkRoute(routes, helpdesk, baseUrl);
}
