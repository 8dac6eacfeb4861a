import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { requireStanding, type ApplicationState } from './auth.ts';
import type { DeskConversationService } from './desk-conversation-service.ts';
import { AccountParams, AssignmentCreate, ConversationListQuery, ConversationParams, DeskConversation, DeskConversationList, DeskMessage, DeskMessageCreate, StatusChange } from './schemas.ts';
import { z } from 'zod';

const tag = 'Application API';
const security = 'accessToken';
const base = '/api/v1/accounts/:account_id/conversations';
const errors = ['unauthorized', 'not_found', 'unprocessable'] as const;
const moves = [...errors, 'invalid_state', 'upstream_unavailable'] as const;
const conversation = { 200: { description: 'The conversation.', schema: DeskConversation } };

/**
 * The people's side of conversations: list (handed-over ones first), read, answer, note, assign,
 * hand back to the AI, resolve. Every person of the account (and its bots) may; agents see the
 * inboxes they answer.
 */
export function addDeskConversationRoutes(routes: ApiRoutes<ApplicationState>, desk: DeskConversationService, sql: Sql): void {
  const standing = (ctx: { state: ApplicationState }, accountId: number) => requireStanding(sql, ctx.state.caller, accountId);
  routes
    .add(
      {
        method: 'get',
        path: base,
        tag,
        security,
        summary: 'Conversations: handed-over ones first, then by last activity; 25 a page',
        params: AccountParams,
        query: ConversationListQuery,
        responses: { 200: { description: 'A page, with the counts mine / unassigned / all.', schema: DeskConversationList } },
        errors: [...errors],
      },
      async (ctx, { params, query }) => {
        ctx.body = await desk.list(params.account_id, ctx.state.caller, await standing(ctx, params.account_id), query);
      },
    )
    .add({ method: 'get', path: `${base}/:conversation_id`, tag, security, summary: 'A conversation', params: ConversationParams, responses: conversation, errors: [...errors] }, async (ctx, { params }) => {
      ctx.body = await desk.get(params.account_id, ctx.state.caller, await standing(ctx, params.account_id), params.conversation_id);
    })
    .add(
      { method: 'get', path: `${base}/:conversation_id/messages`, tag, security, summary: 'Every message, private notes included', params: ConversationParams, responses: { 200: { description: 'The messages, oldest first.', schema: z.object({ payload: z.array(DeskMessage) }) } }, errors: [...errors] },
      async (ctx, { params }) => {
        ctx.body = await desk.messages(params.account_id, ctx.state.caller, await standing(ctx, params.account_id), params.conversation_id);
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/:conversation_id/messages`,
        tag,
        security,
        summary: "Answer the customer (handing the conversation to people first when the AI has it), or write a private note",
        description: 'An answer goes to the AI engine at once; when it cannot be reached the answer is 503 and nothing is stored: send it again with the same echo_id.',
        params: ConversationParams,
        body: DeskMessageCreate,
        bodyLimit: 640 * 1024,
        responses: { 200: { description: 'The message.', schema: DeskMessage } },
        errors: [...moves],
      },
      async (ctx, { params, body }) => {
        ctx.body = await desk.reply(params.account_id, ctx.state.caller, await standing(ctx, params.account_id), params.conversation_id, body);
      },
    )
    .add(
      { method: 'post', path: `${base}/:conversation_id/assignments`, tag, security, summary: 'Assign to a person of the account (null: unassign)', params: ConversationParams, body: AssignmentCreate, responses: conversation, errors: [...errors] },
      async (ctx, { params, body }) => {
        ctx.body = await desk.assign(params.account_id, ctx.state.caller, await standing(ctx, params.account_id), params.conversation_id, body.assignee_id);
      },
    )
    .add(
      { method: 'post', path: `${base}/:conversation_id/handback`, tag, security, summary: 'Give the conversation back to the AI', params: ConversationParams, responses: conversation, errors: [...moves] },
      async (ctx, { params }) => {
        ctx.body = await desk.handback(params.account_id, ctx.state.caller, await standing(ctx, params.account_id), params.conversation_id);
      },
    )
    .add(
      { method: 'post', path: `${base}/:conversation_id/toggle_status`, tag, security, summary: 'Resolve (a resolved conversation is not reopened)', params: ConversationParams, body: StatusChange, responses: conversation, errors: [...moves] },
      async (ctx, { params, body }) => {
        ctx.body = await desk.setStatus(params.account_id, ctx.state.caller, await standing(ctx, params.account_id), params.conversation_id, body.status);
      },
    );
}
