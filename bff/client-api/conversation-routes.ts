/**
 * The Client API's conversations of a contact:
 * `/public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations[/{conversation_id}[/…]]`.
 */
import { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { ApiRoutes } from '../../shared/server/index.ts';
import type { ClientService } from './client-service.ts';
import { CLIENT_API_PAGES, refuseOverLimit, type ClientApiLimits } from './limits.ts';
import { base, contactParams, conversationParams, errors, tag, type ContactState } from './route-paths.ts';
import { ConversationPayload, ConversationsQuery, PublicConversation, TypingPayload, TypingQuery } from './schemas.ts';

/** Starting, listing and reading a contact's conversations. */
export function addConversationRoutes<State extends ContactState>(
  routes: ApiRoutes<State>,
  client: ClientService,
  { conversationsPerContact }: ClientApiLimits,
): void {
  routes
    .add(
      {
        method: 'post',
        path: `${base}/contacts/:contact_identifier/conversations`,
        tag,
        summary: 'Start a conversation',
        description: `A contact starts at most ${conversationsPerContact} conversations a minute. custom_attributes: at most 16 KB as JSON.`,
        params: contactParams,
        body: ConversationPayload,
        responses: { 200: { description: 'The conversation.', schema: PublicConversation } },
        errors: [...errors],
      },
      async (ctx, { body }) => {
        const counted = await client.count('conversationsPerContact', ctx.state.contact.id, conversationsPerContact);
        refuseOverLimit(ctx, counted, `A contact may start ${conversationsPerContact} conversations a minute.`);
        ctx.body = await client.createConversation(ctx.state.inbox, ctx.state.contact, body.custom_attributes);
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/contacts/:contact_identifier/conversations`,
        tag,
        summary: "The contact's conversations, 25 a page",
        description: `Page 1 (the default) is the newest ${CLIENT_API_PAGES.conversations} conversations, page 2 the ${CLIENT_API_PAGES.conversations} before them; each page lists oldest first, and a page with fewer is the last. Each conversation carries its newest ${CLIENT_API_PAGES.messagesInConversation} messages.`,
        params: contactParams,
        query: ConversationsQuery,
        responses: {
          200: {
            description: 'A page of conversations.',
            schema: z.array(PublicConversation).max(CLIENT_API_PAGES.conversations),
          },
        },
        errors: [...errors],
      },
      async (ctx, { query }) => {
        ctx.body = await client.listConversations(ctx.state.inbox, ctx.state.contact, query.page ?? 1);
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/contacts/:contact_identifier/conversations/:conversation_id`,
        tag,
        summary: 'A conversation',
        params: conversationParams,
        responses: { 200: { description: 'The conversation.', schema: PublicConversation } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        ctx.body = await client.getConversation(ctx.state.inbox, ctx.state.contact, params.conversation_id);
      },
    );
}

/** What a contact does to one of its conversations: resolve it, type in it, read it. */
export function addConversationActionRoutes<State extends ContactState>(
  routes: ApiRoutes<State>,
  client: ClientService,
): void {
  routes
    .add(
      {
        method: 'post',
        path: `${base}/contacts/:contact_identifier/conversations/:conversation_id/toggle_status`,
        tag,
        summary: 'Resolve the conversation',
        params: conversationParams,
        responses: { 200: { description: 'The resolved conversation.', schema: PublicConversation } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        ctx.body = await client.resolve(ctx.state.inbox, ctx.state.contact, params.conversation_id);
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/contacts/:contact_identifier/conversations/:conversation_id/toggle_typing`,
        tag,
        summary: 'The contact is typing (on) or stopped (off)',
        description: 'typing_status may come in the query or in the body.',
        params: conversationParams,
        query: TypingQuery,
        body: TypingPayload,
        responses: { 200: { description: 'Passed on.' } },
        errors: [...errors],
      },
      async (ctx, { params, query, body }) => {
        const status = query.typing_status ?? body.typing_status;
        if (!status)
          throw new ParleyError('invalid_request', 'Send typing_status on or off, in the query or the body.');
        await client.typing(ctx.state.contact, params.conversation_id, status);
        ctx.status = 200;
        ctx.body = '';
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/contacts/:contact_identifier/conversations/:conversation_id/update_last_seen`,
        tag,
        summary: 'The contact has seen the conversation up to now',
        params: conversationParams,
        responses: { 200: { description: 'Earlier answers are read.' } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await client.lastSeen(ctx.state.contact, params.conversation_id);
        ctx.status = 200;
        ctx.body = '';
      },
    );
}
