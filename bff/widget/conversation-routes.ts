import {
  ConversationUuid,
  EmptyRequest,
  MessagesPage,
  MessagesQuery,
  OpenWidgetConversationRequest,
  ReadRequest,
  ReadState,
  SendWidgetMessageRequest,
  SurveyAnswer,
  SurveyRequest,
  TypingRequest,
  WidgetConfig,
  WidgetConfigQuery,
  WidgetConversation,
  WidgetConversationList,
  WidgetMessage,
} from '../../shared/index.ts';
import { clientLimitKey, MESSAGE_BODY_LIMIT, type ApiRoutes } from '../../shared/server/index.ts';
import type { ConversationService } from './conversation-service.ts';
import { MESSAGE_LIMITS } from './message-limits.ts';
import type { DeskWebhooks } from '../helpdesk/desk-webhooks.ts';
import type { WidgetState } from './session-auth.ts';
import { openedFrom } from './start-routes.ts';

const tag = 'Widget';
const security = 'sessionToken';
const params = ConversationUuid;
const { perCustomerPerMinute, perAddressPerMinute, perInboxPerMinute } = MESSAGE_LIMITS;

/**
 * `/v1/widget/...`: what the widget (and the hosted chat, and apps) call with a `wst_` session token.
 * `opened` hears that a customer opened the chat (the config is what the widget asks for first);
 * `trustProxyHops` says where the client's address is (a visitor's messages count against it).
 */
export function addWidgetRoutes(
  routes: ApiRoutes<WidgetState>,
  conversations: ConversationService,
  opened: Pick<DeskWebhooks, 'widgetOpened'>,
  trustProxyHops: number,
): void {
  addConfigRoute(routes, conversations, opened);
  addConversationRoutes(routes, conversations);
  addMessageRoutes(routes, conversations, trustProxyHops);
  addTypingAndReadRoutes(routes, conversations);
  addClosingRoutes(routes, conversations);
}

/** The configuration the widget asks for first, which also tells the desk the chat was opened. */
function addConfigRoute(
  routes: ApiRoutes<WidgetState>,
  conversations: ConversationService,
  opened: Pick<DeskWebhooks, 'widgetOpened'>,
): void {
  routes.add(
    {
      method: 'get',
      path: '/v1/widget/config',
      tag,
      security,
      summary: "The inbox's look and features, and who the session is",
      query: WidgetConfigQuery,
      responses: { 200: { description: 'The configuration.', schema: WidgetConfig } },
    },
    async (ctx, { query }) => {
      const { session } = ctx.state;
      const [config] = await Promise.all([
        conversations.config(session, query.locale),
        opened.widgetOpened(session, openedFrom(ctx)),
      ]);
      ctx.body = config;
    },
  );
}

/** The customer's conversations: listing, starting and reading one. */
function addConversationRoutes(routes: ApiRoutes<WidgetState>, conversations: ConversationService): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/widget/conversations',
        tag,
        security,
        summary: "The customer's conversations, newest first",
        responses: { 200: { description: 'The conversations.', schema: WidgetConversationList } },
      },
      async (ctx) => {
        ctx.body = { conversations: await conversations.list(ctx.state.session) };
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/widget/conversations',
        tag,
        security,
        summary: 'Start a new conversation',
        body: OpenWidgetConversationRequest,
        responses: { 201: { description: 'The new conversation.', schema: WidgetConversation } },
      },
      async (ctx, { body }) => {
        ctx.status = 201;
        // A verified customer's address (the site's server vouched for it) is known: the widget need not ask for one.
        const email = body.email ?? ctx.state.session.email;
        ctx.body = await conversations.open(ctx.state.session, {
          ...body,
          email,
          pageUrl: ctx.get('referer') || undefined,
        });
      },
    )
    .add(
      {
        method: 'get',
        path: '/v1/widget/conversations/:id',
        tag,
        security,
        summary: 'One conversation',
        params,
        responses: { 200: { description: 'The conversation.', schema: WidgetConversation } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        ctx.body = await conversations.get(ctx.state.session, params.id);
      },
    );
}

/** A conversation's messages: polling for new ones and sending one (counted against the message limits). */
function addMessageRoutes(
  routes: ApiRoutes<WidgetState>,
  conversations: ConversationService,
  trustProxyHops: number,
): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/widget/conversations/:id/messages',
        tag,
        security,
        summary: 'Messages after a cursor (polling; does not count against the limit)',
        description: 'Pass the id of the last message you have as after; next is the id to pass next time.',
        params,
        query: MessagesQuery,
        responses: { 200: { description: 'Up to 100 messages, oldest first.', schema: MessagesPage } },
        errors: ['not_found'],
      },
      async (ctx, { params, query }) => {
        ctx.body = await conversations.messages(ctx.state.session, params.id, query.after);
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/widget/conversations/:id/messages',
        tag,
        security,
        summary: 'Send a message',
        description:
          'message_id is made by the client; sending it again returns the first copy (200) and changes nothing. The answer comes on the socket and by polling. ' +
          `New messages a minute: ${perCustomerPerMinute} per customer, ${perAddressPerMinute} per client address from visitors (the inbox's ai_messages_per_address_per_minute raises it), ${perInboxPerMinute} per inbox; ` +
          'over one, 429 rate_limited with Retry-After, and nothing is kept.',
        params,
        body: SendWidgetMessageRequest,
        bodyLimit: MESSAGE_BODY_LIMIT,
        responses: {
          201: { description: 'The stored message.', schema: WidgetMessage },
          200: { description: 'The message stored earlier with this message_id.', schema: WidgetMessage },
        },
        errors: ['not_found', 'invalid_state'],
      },
      async (ctx, { params, body }) => {
        const { message, created } = await conversations.send(
          { ...ctx.state.session, address: clientLimitKey(ctx.req, trustProxyHops) },
          params.id,
          body,
        );
        ctx.status = created ? 201 : 200;
        ctx.body = message;
      },
    );
}

/** What the customer is doing in a conversation: typing, and how far they have read. */
function addTypingAndReadRoutes(routes: ApiRoutes<WidgetState>, conversations: ConversationService): void {
  routes
    .add(
      {
        method: 'post',
        path: '/v1/widget/conversations/:id/typing',
        tag,
        security,
        summary: 'The customer started or stopped typing',
        params,
        body: TypingRequest,
        responses: { 204: { description: 'Passed on.' } },
        errors: ['not_found'],
      },
      async (ctx, { params, body }) => {
        await conversations.setTyping(ctx.state.session, params.id, body.typing);
        ctx.status = 204;
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/widget/conversations/:id/read',
        tag,
        security,
        summary: 'Mark messages read up to an id',
        params,
        body: ReadRequest,
        responses: { 200: { description: 'The read position and what is still unread.', schema: ReadState } },
        errors: ['not_found'],
      },
      async (ctx, { params, body }) => {
        ctx.body = await conversations.markRead(ctx.state.session, params.id, body.last_read_id);
      },
    );
}

/** The end of a conversation: closing it, and answering the satisfaction survey after. */
function addClosingRoutes(routes: ApiRoutes<WidgetState>, conversations: ConversationService): void {
  routes
    .add(
      {
        method: 'post',
        path: '/v1/widget/conversations/:id/close',
        tag,
        security,
        summary: 'Close the conversation',
        params,
        body: EmptyRequest,
        responses: { 200: { description: 'The resolved conversation.', schema: WidgetConversation } },
        errors: ['not_found', 'invalid_state'],
      },
      async (ctx, { params }) => {
        ctx.body = await conversations.close(ctx.state.session, params.id);
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/widget/conversations/:id/survey',
        tag,
        security,
        summary: 'Answer the satisfaction survey (1–5 and a comment)',
        description: 'Open once the conversation is resolved; the answer can be changed for 14 days.',
        params,
        body: SurveyRequest,
        responses: { 200: { description: 'The answer as kept.', schema: SurveyAnswer } },
        errors: ['not_found', 'invalid_state', 'unprocessable'],
      },
      async (ctx, { params, body }) => {
        ctx.body = await conversations.answerSurvey(ctx.state.session, params.id, body);
      },
    );
}
