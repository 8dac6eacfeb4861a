import { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import { MESSAGE_BODY_LIMIT, parseWith, type ApiRoutes } from '../../shared/server/index.ts';
import type { ContactRecord } from '../store/contacts.ts';
import type { ClientInbox } from '../store/inboxes.ts';
import type { ClientService } from './client-service.ts';
import { contactRecordShape, contactShape, inboxShape } from './shapes.ts';
import {
  ContactPayload,
  ConversationPayload,
  CsatSurvey,
  CsatUpdatePayload,
  IdentityQuery,
  MessagePayload,
  MessageUpdatePayload,
  MessagesQuery,
  PublicContact,
  PublicContactRecord,
  PublicConversation,
  PublicInbox,
  PublicMessage,
  TypingPayload,
  TypingQuery,
} from './schemas.ts';

const tag = 'Client API';
const base = '/public/api/v1/inboxes/:inbox_identifier';
const InboxIdentifier = z.string().max(100);
const ContactIdentifier = z.string().max(128);
const inboxParams = z.strictObject({ inbox_identifier: InboxIdentifier });
const contactParams = inboxParams.extend({ contact_identifier: ContactIdentifier });
const conversationParams = contactParams.extend({ conversation_id: z.string().max(20) });
const messageParams = conversationParams.extend({ message_id: z.string().max(20) });
const errors = ['not_found', 'unauthorized'] as const;

/** What the path's identifiers name, loaded once per request. */
export interface DeskState {
  inbox: ClientInbox;
  contact: ContactRecord;
}

/**
 * The helpdesk Client API (SPEC "Helpdesk Client API"), compatible with Chatwoot's: no credential,
 * the inbox identifier and the contact identifier are the capability. The inbox and the contact are
 * loaded once per request, and a browser's Origin is checked against the inbox's allowlist when it
 * has one (without a list any origin may call). Errors use the `bad_request_error` shape.
 */
export function addClientApiRoutes(routes: ApiRoutes<DeskState>, client: ClientService): void {
  routes
    .param('inbox_identifier', async (value, ctx) => {
      const inbox = await client.inboxOf(parseWith(InboxIdentifier, value, 'path'));
      // A browser request from an origin the inbox does not list is refused (and gets no Access-Control-Allow-Origin).
      const origin = ctx.get('origin');
      if (origin && inbox.clientApiOrigins.length > 0 && !inbox.clientApiOrigins.includes(origin)) {
        throw new ParleyError('origin_not_allowed', `This inbox may not be used from ${origin}.`);
      }
      ctx.state.inbox = inbox;
    })
    .param('contact_identifier', async (value, ctx) => {
      ctx.state.contact = await client.contactOf(ctx.state.inbox, parseWith(ContactIdentifier, value, 'path'));
    })
    .add({ method: 'get', path: base, tag, summary: 'The inbox', params: inboxParams, responses: { 200: { description: 'The public inbox.', schema: PublicInbox } }, errors: ['not_found'] }, async (ctx) => {
      ctx.body = inboxShape(ctx.state.inbox);
    })
    .add(
      { method: 'post', path: `${base}/contacts`, tag, summary: 'Create (or find) a contact', description: 'Gives the contact of a known source_id, or the contact that proved the same identifier with identifier_hash; otherwise a new contact (new source_id and pubsub_token), of the same person when an unproved contact has the identifier, email or phone number. Nothing claimed without identifier_hash reaches a contact whose identifier was proved; a proved identifier naming another contact\'s source_id is 401.', params: inboxParams, body: ContactPayload, responses: { 200: { description: 'The contact.', schema: PublicContact } }, errors: [...errors] },
      async (ctx, { body }) => {
        ctx.body = contactShape(await client.createContact(ctx.state.inbox, body));
      },
    )
    .add(
      { method: 'get', path: `${base}/contacts/:contact_identifier`, tag, summary: 'A contact', params: contactParams, query: IdentityQuery, responses: { 200: { description: 'The contact.', schema: PublicContact } }, errors: [...errors] },
      async (ctx, { query }) => {
        ctx.body = contactShape(client.checkContact(ctx.state.inbox, ctx.state.contact, query));
      },
    )
    .add(
      { method: 'patch', path: `${base}/contacts/:contact_identifier`, tag, summary: 'Update a contact (custom_attributes are deep-merged)', description: 'identifier is set only with its identifier_hash, and only on a contact without one; without proof it is ignored, as in Chatwoot.', params: contactParams, body: ContactPayload, responses: { 200: { description: 'The contact record.', schema: PublicContactRecord } }, errors: [...errors] },
      async (ctx, { body }) => {
        ctx.body = contactRecordShape(await client.updateContact(ctx.state.inbox, ctx.state.contact, body));
      },
    )
    .add(
      { method: 'post', path: `${base}/contacts/:contact_identifier/conversations`, tag, summary: 'Start a conversation', params: contactParams, body: ConversationPayload, responses: { 200: { description: 'The conversation.', schema: PublicConversation } }, errors: [...errors] },
      async (ctx, { body }) => {
        ctx.body = await client.createConversation(ctx.state.inbox, ctx.state.contact, body.custom_attributes);
      },
    )
    .add(
      { method: 'get', path: `${base}/contacts/:contact_identifier/conversations`, tag, summary: "The contact's conversations", params: contactParams, responses: { 200: { description: 'The conversations.', schema: z.array(PublicConversation) } }, errors: [...errors] },
      async (ctx) => {
        ctx.body = await client.listConversations(ctx.state.inbox, ctx.state.contact);
      },
    )
    .add(
      { method: 'get', path: `${base}/contacts/:contact_identifier/conversations/:conversation_id`, tag, summary: 'A conversation', params: conversationParams, responses: { 200: { description: 'The conversation.', schema: PublicConversation } }, errors: [...errors] },
      async (ctx, { params }) => {
        ctx.body = await client.getConversation(ctx.state.inbox, ctx.state.contact, params.conversation_id);
      },
    )
    .add(
      { method: 'post', path: `${base}/contacts/:contact_identifier/conversations/:conversation_id/toggle_status`, tag, summary: 'Resolve the conversation', params: conversationParams, responses: { 200: { description: 'The resolved conversation.', schema: PublicConversation } }, errors: [...errors] },
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
        if (!status) throw new ParleyError('invalid_request', 'Send typing_status on or off, in the query or the body.');
        await client.typing(ctx.state.contact, params.conversation_id, status);
        ctx.status = 200;
        ctx.body = '';
      },
    )
    .add(
      { method: 'post', path: `${base}/contacts/:contact_identifier/conversations/:conversation_id/update_last_seen`, tag, summary: 'The contact has seen the conversation up to now', params: conversationParams, responses: { 200: { description: 'Earlier answers are read.' } }, errors: [...errors] },
      async (ctx, { params }) => {
        await client.lastSeen(ctx.state.contact, params.conversation_id);
        ctx.status = 200;
        ctx.body = '';
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/contacts/:contact_identifier/conversations/:conversation_id/messages`,
        tag,
        summary: 'Send a message',
        description: 'content of at most 150,000 characters; echo_id comes back in the realtime event. At most 200 messages a minute in one conversation.',
        params: conversationParams,
        body: MessagePayload,
        bodyLimit: MESSAGE_BODY_LIMIT,
        responses: { 200: { description: 'The message.', schema: PublicMessage } },
        errors: [...errors, 'rate_limited', 'invalid_state'],
      },
      async (ctx, { params, body }) => {
        ctx.body = await client.createMessage(ctx.state.contact, params.conversation_id, body.content, body.echo_id);
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/contacts/:contact_identifier/conversations/:conversation_id/messages`,
        tag,
        summary: 'The latest 20 messages, oldest first; before=<id> for older ones',
        params: conversationParams,
        query: MessagesQuery,
        responses: { 200: { description: 'The messages.', schema: z.array(PublicMessage) } },
        errors: [...errors],
      },
      async (ctx, { params, query }) => {
        ctx.body = await client.listMessages(ctx.state.contact, params.conversation_id, query.before);
      },
    )
    .add(
      {
        method: 'patch',
        path: `${base}/contacts/:contact_identifier/conversations/:conversation_id/messages/:message_id`,
        tag,
        summary: 'Answer an interactive message (choices, forms, the survey)',
        params: messageParams,
        body: MessageUpdatePayload,
        responses: { 200: { description: 'The message.', schema: PublicMessage } },
        errors: [...errors, 'unprocessable'],
      },
      async (ctx, { params, body }) => {
        ctx.body = await client.updateMessage(ctx.state.contact, params.conversation_id, params.message_id, body.submitted_values);
      },
    )
    .add(
      { method: 'get', path: '/public/api/v1/csat_survey/:uuid', tag: 'Survey', summary: 'The survey of a conversation', params: z.strictObject({ uuid: z.string().max(64) }), responses: { 200: { description: 'The survey.', schema: CsatSurvey } }, errors: ['not_found'] },
      async (ctx, { params }) => {
        ctx.body = csatShape(await client.survey(params.uuid));
      },
    )
    .add(
      {
        method: 'put',
        path: '/public/api/v1/csat_survey/:uuid',
        tag: 'Survey',
        summary: 'Answer the survey',
        params: z.strictObject({ uuid: z.string().max(64) }),
        body: CsatUpdatePayload,
        responses: { 200: { description: 'The survey with the answer.', schema: CsatSurvey } },
        errors: ['not_found', 'unprocessable'],
      },
      async (ctx, { params, body }) => {
        const { rating, feedback_message } = body.message.submitted_values.csat_survey_response;
        ctx.body = csatShape(await client.answerSurvey(params.uuid, rating, feedback_message ?? ''));
      },
    );
}

function csatShape({ row, inbox }: Awaited<ReturnType<ClientService['survey']>>): CsatSurvey {
  return {
    id: row.csat_id,
    csat_survey_response: row.rating === null ? null : { rating: row.rating, feedback_message: row.comment ?? '', conversation_id: row.id, created_at: row.survey_at?.toISOString() },
    display_type: 'star',
    content: 'Please rate this conversation.',
    inbox_avatar_url: '',
    inbox_name: inbox.name,
    locale: inbox.locale,
    conversation_id: row.id,
    created_at: row.created_at.toISOString(),
  };
}
