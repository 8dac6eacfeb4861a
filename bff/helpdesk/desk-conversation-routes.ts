import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { requireStanding, type ApplicationState } from './auth.ts';
import type { Role } from './store/accounts.ts';
import type { DeskConversationService } from './desk-conversation-service.ts';
import {
  AccountParams,
  AssignmentCreate,
  ConversationListQuery,
  ConversationParams,
  DeskConversation,
  DeskConversationList,
  DeskMessage,
  DeskMessageCreate,
  StatusChange,
} from '../../shared/schemas/helpdesk/index.ts';
import { z } from 'zod';
import type { DeskFiles } from '../attachments/desk-files.ts';
import { deskMessageMultipart, sendDeskMessage } from '../attachments/desk-routes.ts';

const tag = 'Application API';
const security = 'accessToken';
const base = '/api/v1/accounts/:account_id/conversations';
const errors = ['unauthorized', 'not_found', 'unprocessable'] as const;
const moves = [...errors, 'invalid_state', 'conflict', 'upstream_unavailable'] as const;
const conversation = { 200: { description: 'The conversation.', schema: DeskConversation } };

interface DeskRoutesDeps {
  desk: DeskConversationService;
  /** The caller's standing in the account of the route (401 when they have none). */
  standing: (ctx: { state: ApplicationState }, accountId: number) => Promise<Role | 'bot'>;
  /** A person's files (multipart `attachments[]` on the messages route). */
  files: DeskFiles;
}

/** The list by status, one conversation, and the customer's other conversations. */
function addConversationReadingRoutes(routes: ApiRoutes<ApplicationState>, { desk, standing }: DeskRoutesDeps): void {
  routes
    .add(
      {
        method: 'get',
        path: base,
        tag,
        security,
        summary:
          'Conversations in a status (default open: people answer them): those people answer first, then by last activity; 25 a page',
        description:
          'status: pending (the AI answers), open (handed over to people), snoozed (by a person, until a time or until the customer writes), resolved, or all.',
        params: AccountParams,
        query: ConversationListQuery,
        responses: {
          200: {
            description: 'A page, with the counts mine / unassigned / all under the same status and inbox.',
            schema: DeskConversationList,
          },
        },
        errors: [...errors],
      },
      async (ctx, { params, query }) => {
        ctx.body = await desk.list(params.account_id, ctx.state.caller, await standing(ctx, params.account_id), query);
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/:conversation_id`,
        tag,
        security,
        summary: 'A conversation',
        params: ConversationParams,
        responses: conversation,
        errors: [...errors],
      },
      async (ctx, { params }) => {
        ctx.body = await desk.get(
          params.account_id,
          ctx.state.caller,
          await standing(ctx, params.account_id),
          params.conversation_id,
        );
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/:conversation_id/contact_conversations`,
        tag,
        security,
        summary: "The customer's other conversations (that you may see), newest first",
        params: ConversationParams,
        responses: {
          200: { description: 'Up to 25 conversations.', schema: z.object({ payload: z.array(DeskConversation) }) },
        },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        ctx.body = await desk.contactConversations(
          params.account_id,
          ctx.state.caller,
          await standing(ctx, params.account_id),
          params.conversation_id,
        );
      },
    );
}

/** Every message, an answer or a private note, and the conversation marked read. */
function addConversationMessageRoutes(
  routes: ApiRoutes<ApplicationState>,
  { desk, standing, files }: DeskRoutesDeps,
): void {
  routes
    .add(
      {
        method: 'get',
        path: `${base}/:conversation_id/messages`,
        tag,
        security,
        summary: 'Every message, private notes included',
        params: ConversationParams,
        responses: {
          200: { description: 'The messages, oldest first.', schema: z.object({ payload: z.array(DeskMessage) }) },
        },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        ctx.body = await desk.messages(
          params.account_id,
          ctx.state.caller,
          await standing(ctx, params.account_id),
          params.conversation_id,
        );
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/:conversation_id/messages`,
        tag,
        security,
        summary:
          'Answer the customer (handing the conversation to people first when the AI has it), or write a private note',
        description:
          'An answer goes to the AI engine at once; when it cannot be reached the answer is 503 and nothing is stored: send it again with the same echo_id. ' +
          "Files go as multipart/form-data (Chatwoot's form: content, private, echo_id and attachments[]), checked by their bytes as the widget's are: " +
          "PNG, JPEG, GIF, WebP, PDF, audio or video (else 415), together at most 10 MB by default (413), images of at most 40 megapixels (422), within the account's storage (413 storage_full); the customer sees them.",
        params: ConversationParams,
        body: DeskMessageCreate,
        bodyLimit: 640 * 1024,
        multipart: deskMessageMultipart(files),
        responses: { 200: { description: 'The message.', schema: DeskMessage } },
        errors: [...moves, 'storage_full'],
      },
      async (ctx, { params, body, files: sent }) => {
        const place = [
          params.account_id,
          ctx.state.caller,
          await standing(ctx, params.account_id),
          params.conversation_id,
        ] as const;
        const answer = (words: z.output<typeof DeskMessageCreate>) => desk.reply(...place, words);
        ctx.body = await sendDeskMessage({ files, answer }, place, body, sent);
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/:conversation_id/update_last_seen`,
        tag,
        security,
        summary: 'Mark the conversation read by people',
        description:
          "Its unread count starts again, and the customer's messages show as read in their widget (read receipts).",
        params: ConversationParams,
        responses: conversation,
        errors: [...errors],
      },
      async (ctx, { params }) => {
        ctx.body = await desk.markRead(
          params.account_id,
          ctx.state.caller,
          await standing(ctx, params.account_id),
          params.conversation_id,
        );
      },
    );
}

/** Who answers it and its status: assign, hand back to the AI, toggle the status. */
function addConversationMoveRoutes(routes: ApiRoutes<ApplicationState>, { desk, standing }: DeskRoutesDeps): void {
  routes
    .add(
      {
        method: 'post',
        path: `${base}/:conversation_id/assignments`,
        tag,
        security,
        summary: 'Assign to a person who answers its inbox and/or a team of the account (null: none)',
        description:
          'assignee_id, team_id or both; what is not given stays. The console of the assignee hears it live.',
        params: ConversationParams,
        body: AssignmentCreate,
        responses: conversation,
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        ctx.body = await desk.assign(
          params.account_id,
          ctx.state.caller,
          await standing(ctx, params.account_id),
          params.conversation_id,
          body,
        );
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/:conversation_id/handback`,
        tag,
        security,
        summary: 'Give the conversation back to the AI (it becomes pending; a snooze ends)',
        params: ConversationParams,
        responses: conversation,
        errors: [...moves],
      },
      async (ctx, { params }) => {
        ctx.body = await desk.handback(
          params.account_id,
          ctx.state.caller,
          await standing(ctx, params.account_id),
          params.conversation_id,
        );
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/:conversation_id/toggle_status`,
        tag,
        security,
        summary:
          'Resolve, snooze, give to the AI (pending) or to people (open); open also reopens a resolved conversation',
        description:
          'resolved: closed as the customer closes it (a survey question when the inbox asks). pending: back to the AI. ' +
          'snoozed: until snoozed_until (Unix seconds; a time already past ends it at once), or without one until the customer writes; ' +
          'the customer writing ends any snooze. open: handed over to people, or no longer snoozed, or a resolved conversation reopened ' +
          'for people on a new AI conversation. Without a status: resolved, or open when it is resolved. The status it has already ' +
          'changes nothing. A move that needs the AI engine answers 503 and changes nothing while the engine cannot be reached.',
        params: ConversationParams,
        body: StatusChange,
        responses: conversation,
        errors: [...moves],
      },
      async (ctx, { params, body }) => {
        ctx.body = await desk.setStatus(
          params.account_id,
          ctx.state.caller,
          await standing(ctx, params.account_id),
          params.conversation_id,
          body,
        );
      },
    );
}

/**
 * The people's side of conversations: list by status (pending with the AI, open with people,
 * snoozed, resolved), read, answer, note, assign, hand back to the AI, and toggle the status
 * (resolve, snooze, hand over or back, reopen). Every person of the account (and its bots) may;
 * agents see the inboxes they answer.
 */
export function addDeskConversationRoutes(
  routes: ApiRoutes<ApplicationState>,
  desk: DeskConversationService,
  sql: Sql,
  files: DeskFiles,
): void {
  const standing = (ctx: { state: ApplicationState }, accountId: number) =>
    requireStanding(sql, ctx.state.caller, accountId);
  addConversationReadingRoutes(routes, { desk, standing, files });
  addConversationMessageRoutes(routes, { desk, standing, files });
  addConversationMoveRoutes(routes, { desk, standing, files });
}
