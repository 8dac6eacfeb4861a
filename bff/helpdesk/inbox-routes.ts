import { z } from 'zod';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { requireStanding, type ApplicationState } from './auth.ts';
import type { InboxService } from './inbox-service.ts';
import {
  AccountParams,
  Agent,
  Inbox,
  InboxCreate,
  InboxList,
  InboxMembersChange,
  InboxParams,
  InboxUpdate,
  SetAgentBot,
  SiteKey,
  SiteKeyCreate,
  SiteKeyParams,
  SiteKeyUpdate,
} from '../../shared/schemas/helpdesk/index.ts';

const tag = 'Application API';
const security = 'accessToken';
const base = '/api/v1/accounts/:account_id';
const errors = ['unauthorized', 'not_found', 'unprocessable'] as const;
const done = { 200: { description: 'Done (empty body).' } };
const agents = {
  200: { description: 'The people who answer the inbox.', schema: z.object({ payload: z.array(Agent) }) },
};

const member = (sql: Sql, ctx: { state: ApplicationState }, accountId: number) =>
  requireStanding(sql, ctx.state.caller, accountId);
const administrator = (sql: Sql, ctx: { state: ApplicationState }, accountId: number) =>
  requireStanding(sql, ctx.state.caller, accountId, 'administrator');

/** The account's people, its inboxes, and making an inbox. */
function addAgentAndInboxListRoutes(routes: ApiRoutes<ApplicationState>, inboxes: InboxService, sql: Sql): void {
  routes
    .add(
      {
        method: 'get',
        path: `${base}/agents`,
        tag,
        security,
        summary: "The account's people",
        params: AccountParams,
        responses: { 200: { description: 'The agents.', schema: z.array(Agent) } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await member(sql, ctx, params.account_id);
        ctx.body = await inboxes.agentsOf(params.account_id);
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/inboxes`,
        tag,
        security,
        summary: "The account's inboxes",
        params: AccountParams,
        responses: { 200: { description: 'The inboxes.', schema: InboxList } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await member(sql, ctx, params.account_id);
        ctx.body = await inboxes.list(params.account_id);
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/inboxes`,
        tag,
        security,
        summary: 'Make an inbox (administrators); the answer carries its HMAC key',
        params: AccountParams,
        body: InboxCreate,
        responses: { 200: { description: 'The inbox.', schema: Inbox } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await administrator(sql, ctx, params.account_id);
        ctx.body = await inboxes.create(params.account_id, ctx.state.actor, body);
      },
    );
}

/** An inbox's settings: read, changed, deleted. */
function addInboxSettingsRoutes(routes: ApiRoutes<ApplicationState>, inboxes: InboxService, sql: Sql): void {
  routes
    .add(
      {
        method: 'get',
        path: `${base}/inboxes/:inbox_id`,
        tag,
        security,
        summary: 'An inbox',
        params: InboxParams,
        responses: { 200: { description: 'The inbox.', schema: Inbox } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await member(sql, ctx, params.account_id);
        ctx.body = await inboxes.get(params.account_id, params.inbox_id);
      },
    )
    .add(
      {
        method: 'patch',
        path: `${base}/inboxes/:inbox_id`,
        tag,
        security,
        summary: 'Change an inbox (administrators)',
        description:
          "An interview_offer is checked against the AI engine first: an interview the inbox's engine account does not hold (in sandbox or live) is 422 unknown_interview.",
        params: InboxParams,
        body: InboxUpdate,
        form: true,
        responses: { 200: { description: 'The inbox.', schema: Inbox } },
        errors: [...errors, 'unknown_interview', 'upstream_unavailable'],
      },
      async (ctx, { params, body }) => {
        await administrator(sql, ctx, params.account_id);
        ctx.body = await inboxes.update(params.account_id, ctx.state.actor, params.inbox_id, body);
      },
    )
    .add(
      {
        method: 'delete',
        path: `${base}/inboxes/:inbox_id`,
        tag,
        security,
        summary: 'Delete an inbox with its conversations (administrators)',
        params: InboxParams,
        responses: done,
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await administrator(sql, ctx, params.account_id);
        await inboxes.remove(params.account_id, ctx.state.actor, params.inbox_id);
        ctx.body = '';
      },
    );
}

/** An inbox's identity validation (HMAC) key and its agent bot. */
function addInboxKeyAndBotRoutes(routes: ApiRoutes<ApplicationState>, inboxes: InboxService, sql: Sql): void {
  routes
    .add(
      {
        method: 'post',
        path: `${base}/inboxes/:inbox_id/rotate_hmac`,
        tag,
        security,
        summary: 'A new identity validation key (administrators); the old one stops working',
        params: InboxParams,
        responses: { 200: { description: 'The inbox with its new hmac_token.', schema: Inbox } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await administrator(sql, ctx, params.account_id);
        ctx.body = await inboxes.rotateHmac(params.account_id, ctx.state.actor, params.inbox_id);
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/inboxes/:inbox_id/set_agent_bot`,
        tag,
        security,
        summary: 'Connect an agent bot to the inbox (administrators); null disconnects it',
        params: InboxParams,
        body: SetAgentBot,
        responses: { 200: { description: 'The inbox.', schema: Inbox } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await administrator(sql, ctx, params.account_id);
        ctx.body = await inboxes.setAgentBot(params.account_id, ctx.state.actor, params.inbox_id, body.agent_bot);
      },
    );
}

/** An inbox's site keys: listed by prefix, made, their origins changed, revoked. */
function addSiteKeyRoutes(routes: ApiRoutes<ApplicationState>, inboxes: InboxService, sql: Sql): void {
  routes
    .add(
      {
        method: 'get',
        path: `${base}/inboxes/:inbox_id/site_keys`,
        tag,
        security,
        summary: "The inbox's site keys (administrators)",
        params: InboxParams,
        responses: { 200: { description: 'The site keys, by prefix.', schema: z.array(SiteKey) } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await administrator(sql, ctx, params.account_id);
        ctx.body = await inboxes.siteKeys(params.account_id, params.inbox_id);
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/inboxes/:inbox_id/site_keys`,
        tag,
        security,
        summary: 'Make a site key (administrators); the whole key is in this answer only',
        description: 'A live key (pk_live_) works only from the origins listed; a sandbox key (pk_test_) from any.',
        params: InboxParams,
        body: SiteKeyCreate,
        responses: { 200: { description: 'The site key.', schema: SiteKey } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await administrator(sql, ctx, params.account_id);
        ctx.body = await inboxes.createSiteKey(params.account_id, ctx.state.actor, params.inbox_id, body);
      },
    )
    .add(
      {
        method: 'patch',
        path: `${base}/inboxes/:inbox_id/site_keys/:key_id`,
        tag,
        security,
        summary: "Change a live key's allowed origins (administrators)",
        params: SiteKeyParams,
        body: SiteKeyUpdate,
        responses: { 200: { description: 'The site key.', schema: SiteKey } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await administrator(sql, ctx, params.account_id);
        ctx.body = await inboxes.setSiteKeyOrigins(
          params.account_id,
          ctx.state.actor,
          params.inbox_id,
          params.key_id,
          body.allowed_origins,
        );
      },
    )
    .add(
      {
        method: 'delete',
        path: `${base}/inboxes/:inbox_id/site_keys/:key_id`,
        tag,
        security,
        summary: 'Revoke a site key (administrators): it opens no new session',
        params: SiteKeyParams,
        responses: done,
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await administrator(sql, ctx, params.account_id);
        await inboxes.revokeSiteKey(params.account_id, ctx.state.actor, params.inbox_id, params.key_id);
        ctx.body = '';
      },
    );
}

/** The people who answer an inbox. */
function addInboxMemberRoutes(routes: ApiRoutes<ApplicationState>, inboxes: InboxService, sql: Sql): void {
  routes
    .add(
      {
        method: 'get',
        path: `${base}/inbox_members/:inbox_id`,
        tag,
        security,
        summary: 'The people who answer an inbox',
        params: InboxParams,
        responses: agents,
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await member(sql, ctx, params.account_id);
        ctx.body = await inboxes.members(params.account_id, params.inbox_id);
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/inbox_members`,
        tag,
        security,
        summary: 'Add people to an inbox (administrators)',
        params: AccountParams,
        body: InboxMembersChange,
        responses: agents,
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await administrator(sql, ctx, params.account_id);
        ctx.body = await inboxes.addMembers(params.account_id, ctx.state.actor, body.inbox_id, body.user_ids);
      },
    )
    .add(
      {
        method: 'patch',
        path: `${base}/inbox_members`,
        tag,
        security,
        summary: 'Set the people of an inbox (administrators)',
        params: AccountParams,
        body: InboxMembersChange,
        responses: agents,
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await administrator(sql, ctx, params.account_id);
        ctx.body = await inboxes.setMembers(params.account_id, ctx.state.actor, body.inbox_id, body.user_ids);
      },
    )
    .add(
      {
        method: 'delete',
        path: `${base}/inbox_members`,
        tag,
        security,
        summary: 'Take people off an inbox (administrators)',
        params: AccountParams,
        body: InboxMembersChange,
        responses: agents,
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await administrator(sql, ctx, params.account_id);
        ctx.body = await inboxes.removeMembers(params.account_id, ctx.state.actor, body.inbox_id, body.user_ids);
      },
    );
}

/**
 * What an operator needs beyond SPEC's rows, Chatwoot-shaped: the account's people (agents), its
 * inboxes with their settings, site keys (shown whole once; revoked, never deleted) and allowed
 * origins, and the people who answer each inbox. People of the account read; administrators change.
 */
export function addInboxRoutes(routes: ApiRoutes<ApplicationState>, inboxes: InboxService, sql: Sql): void {
  addAgentAndInboxListRoutes(routes, inboxes, sql);
  addInboxSettingsRoutes(routes, inboxes, sql);
  addInboxKeyAndBotRoutes(routes, inboxes, sql);
  addSiteKeyRoutes(routes, inboxes, sql);
  addInboxMemberRoutes(routes, inboxes, sql);
}
