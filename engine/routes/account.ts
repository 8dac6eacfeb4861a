import { z } from 'zod';
import {
  CreateSessionRequest,
  EventsPage,
  EventsQuery,
  MeResponse,
  ParleyError,
  WidgetSession,
} from '../../shared/index.ts';
import type { ApiRoutes, SessionTokens, Sql } from '../../shared/server/index.ts';
import type { EngineState } from '../auth.ts';
import { FEED_START, readFeed } from '../store/events.ts';
import { readAgent } from '../store/agent.ts';
import type { Caller } from '../store/environment.ts';

const DEFAULT_SESSION_TTL_S = 3600;

/** The engine always gives a cursor to read on from (readFeed). */
const FeedPage = EventsPage.extend({
  next: z
    .string()
    .describe(
      `Pass as after to read on; never null. On a feed with nothing yet it is ${FEED_START}, the feed's start.`,
    ),
});

/** What `GET /v1/me` tells: the key in use, its limits, whether the AI is switched off, and whether it takes calls. */
async function meOf(sql: Sql, caller: Caller, aiCalls: boolean): Promise<MeResponse> {
  const { killSwitch } = await readAgent(sql, caller);
  return {
    account_id: caller.accountId,
    environment: caller.environment,
    key: { id: caller.keyId, prefix: caller.keyPrefix },
    limits: { requests_per_minute: caller.requestsPerMinute },
    agent: {
      kill_switch: {
        enabled: killSwitch !== null,
        reason: killSwitch?.reason ?? null,
        since: killSwitch?.since.toISOString() ?? null,
      },
    },
    ai_calls: aiCalls,
  };
}

/** A widget session for the customer the caller's server vouches for. */
async function issueWidgetSession(
  tokens: SessionTokens | undefined,
  caller: Caller,
  body: CreateSessionRequest,
): Promise<WidgetSession> {
  if (!tokens)
    throw new ParleyError(
      'not_configured',
      'This engine has no session keys configured (SESSION_KEYS), so it cannot mint widget sessions.',
    );
  const ttl = body.ttl_s ?? DEFAULT_SESSION_TTL_S;
  const { token, expiresAt } = await tokens.issue(
    {
      customerRef: body.customer_ref,
      verified: true,
      environment: caller.environment,
      accountId: caller.accountId,
      name: body.name,
      email: body.email,
    },
    ttl,
  );
  return {
    token,
    ttl_s: ttl,
    expires_at: expiresAt.toISOString(),
    customer_ref: body.customer_ref,
    verified: true,
  };
}

/** `/v1/events`, `/v1/me` and `/v1/widget-sessions`. */
export function addAccountRoutes(
  routes: ApiRoutes<EngineState>,
  {
    sql,
    tokens,
    aiCalls,
  }: {
    sql: Sql;
    tokens: SessionTokens | undefined;
    /** Whether the engine has speech (STT and TTS): `GET /v1/me` says so, and the BFF offers calls with the AI by it. */
    aiCalls: boolean;
  },
): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/events',
        tag: 'Events',
        security: 'apiKey',
        summary: 'The feed of every event of the account',
        description: `Oldest first. Pass next as after to read on; the feed never skips or repeats an event. No offsets. next is always a cursor to poll again with: the last event of the page, or when the page is not full the newest event of the feed (also one that types left out), or the after sent; on an empty feed it is ${FEED_START}, the feed's start, which gives the first event once there is one.`,
        query: EventsQuery,
        responses: { 200: { description: 'A page of events.', schema: FeedPage } },
      },
      async (ctx, { query }) => {
        ctx.body = await readFeed(sql, ctx.state.caller, query);
      },
    )
    .add(
      {
        method: 'get',
        path: '/v1/me',
        tag: 'Account',
        security: 'apiKey',
        summary: 'The key in use, its limits, whether the AI is switched off, and whether customers can call it',
        responses: { 200: { description: 'The key and its limits.', schema: MeResponse } },
      },
      async (ctx) => {
        ctx.body = await meOf(sql, ctx.state.caller, aiCalls);
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/widget-sessions',
        tag: 'Widgets',
        security: 'apiKey',
        summary: 'Create a widget session token for one verified customer',
        description:
          'Your server vouches for the customer with its API key; hand the token to the widget or app. ttl_s defaults to 3600 and is at most 21600.',
        body: CreateSessionRequest,
        responses: { 201: { description: 'The session token.', schema: WidgetSession } },
        errors: ['not_configured'],
      },
      async (ctx, { body }) => {
        const session = await issueWidgetSession(tokens, ctx.state.caller, body);
        ctx.status = 201;
        ctx.body = session;
      },
    );
}
