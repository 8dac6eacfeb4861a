import { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import { clientLimitKey, MESSAGE_BODY_LIMIT, parseWith, type ApiRoutes } from '../../shared/server/index.ts';
import type { ContactRecord } from './store/contacts.ts';
import type { ClientInbox } from '../store/inboxes.ts';
import type { ClientService } from './client-service.ts';
import { MAX_FILES_PER_MESSAGE } from '../attachments/attachment-service.ts';
import { sendAttachment } from '../attachments/serve.ts';
import { CLIENT_API_PAGES, clientApiLimits, refuseOverLimit, type ClientApiLimits } from './limits.ts';
import { contactRecordShape, contactShape, inboxShape } from './shapes.ts';
import {
  ContactPayload,
  ConversationPayload,
  ConversationsQuery,
  CsatSurvey,
  CsatUpdatePayload,
  IdentityQuery,
  MessageFormFields,
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
const errors = ['not_found', 'unauthorized', 'account_suspended', 'rate_limited'] as const;

/** The client's address (the limits count by it), and what the path's identifiers name, loaded once per request. */
export interface DeskState {
  address: string;
  inbox: ClientInbox;
  contact: ContactRecord;
}

export interface ClientApiRouteOptions {
  /** How many proxies in front append to X-Forwarded-For (0, the default: the peer is the client). */
  trustProxyHops?: number | undefined;
  /** Other numbers for some limits (a test lifts one); by default CLIENT_API_LIMITS. */
  limits?: Partial<ClientApiLimits> | undefined;
}

/**
 * The helpdesk Client API (SPEC "Helpdesk Client API"), compatible with Chatwoot's: no credential,
 * the inbox identifier and the contact identifier are the capability. The inbox and the contact are
 * loaded once per request, and a browser's Origin is checked against the inbox's allowlist when it
 * has one (without a list any origin may call). Errors use the `bad_request_error` shape.
 *
 * Every request counts against its client address, then against its inbox (limits.ts); creating a
 * contact and sending a message have tighter limits of their own. Over a limit the answer is 429
 * with Retry-After. The address count runs first, before anything is looked up, on every route
 * under /public/api/v1 (not the survey page's HTML, which `routes` also carries).
 */
export function addClientApiRoutes(
  routes: ApiRoutes<DeskState>,
  client: ClientService,
  { trustProxyHops = 0, limits: overrides }: ClientApiRouteOptions = {},
): void {
  const limits = clientApiLimits(overrides);
  const { requestsPerAddress, requestsPerInbox, contactsPerAddress, messagesPerContact, conversationsPerContact } =
    limits;
  routes.router.use(async (ctx, next) => {
    ctx.state.address = clientLimitKey(ctx.req, trustProxyHops);
    // The survey page (HTML) counts against the same address limit as the API.
    if (!ctx.path.startsWith('/public/api/v1/') && !ctx.path.startsWith('/survey/responses/')) return next();
    const counted = await client.count('requestsPerAddress', ctx.state.address, requestsPerAddress);
    ctx.set('X-RateLimit-Limit', String(counted.decision.limit));
    ctx.set('X-RateLimit-Remaining', String(counted.decision.remaining));
    ctx.set('X-RateLimit-Reset', String(counted.decision.resetS));
    refuseOverLimit(ctx, counted, `This address may make ${requestsPerAddress} requests a minute to the Client API.`);
    await next();
  });
  routes
    .param('inbox_identifier', async (value, ctx) => {
      const inbox = await client.inboxOf(parseWith(InboxIdentifier, value, 'path'));
      const counted = await client.count('requestsPerInbox', inbox.id, requestsPerInbox);
      refuseOverLimit(
        ctx,
        counted,
        `This inbox takes ${requestsPerInbox} requests a minute from all its clients together.`,
      );
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
    .add(
      {
        method: 'get',
        path: base,
        tag,
        summary: 'The inbox',
        params: inboxParams,
        responses: { 200: { description: 'The public inbox.', schema: PublicInbox } },
        errors: ['not_found', 'account_suspended', 'rate_limited'],
      },
      async (ctx) => {
        ctx.body = inboxShape(ctx.state.inbox);
      },
    )
    .add(
      {
        method: 'post',
        path: `${base}/contacts`,
        tag,
        summary: 'Create (or find) a contact',
        description:
          'Gives the contact of a known source_id, or the contact that proved the same identifier with identifier_hash; ' +
          'otherwise a new contact (new source_id and pubsub_token), of the same person when an unproved contact has the identifier, email or phone number. ' +
          "Nothing claimed without identifier_hash reaches a contact whose identifier was proved; a proved identifier naming another contact's source_id is 401. " +
          `One address creates at most ${contactsPerAddress} contacts a minute.`,
        params: inboxParams,
        body: ContactPayload,
        responses: { 200: { description: 'The contact.', schema: PublicContact } },
        errors: [...errors],
      },
      async (ctx, { body }) => {
        const counted = await client.count('contactsPerAddress', ctx.state.address, contactsPerAddress);
        refuseOverLimit(ctx, counted, `This address may create ${contactsPerAddress} contacts a minute.`);
        ctx.body = contactShape(await client.createContact(ctx.state.inbox, body));
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/contacts/:contact_identifier`,
        tag,
        summary: 'A contact',
        params: contactParams,
        query: IdentityQuery,
        responses: { 200: { description: 'The contact.', schema: PublicContact } },
        errors: [...errors],
      },
      async (ctx, { query }) => {
        ctx.body = contactShape(client.checkContact(ctx.state.inbox, ctx.state.contact, query));
      },
    )
    .add(
      {
        method: 'patch',
        path: `${base}/contacts/:contact_identifier`,
        tag,
        summary: 'Update a contact (custom_attributes are deep-merged)',
        description:
          'identifier is set only with its identifier_hash, and only on a contact without one; without proof it is ignored, as in Chatwoot.',
        params: contactParams,
        body: ContactPayload,
        responses: { 200: { description: 'The contact record.', schema: PublicContactRecord } },
        errors: [...errors],
      },
      async (ctx, { body }) => {
        ctx.body = contactRecordShape(await client.updateContact(ctx.state.inbox, ctx.state.contact, body));
      },
    )
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
    )
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
    )
    .add(
      {
        method: 'post',
        path: `${base}/contacts/:contact_identifier/conversations/:conversation_id/messages`,
        tag,
        summary: 'Send a message',
        description:
          `content of at most 150,000 characters, in a body of at most 640 KB (413 payload_too_large over that); echo_id comes back in the realtime event. A contact sends at most ${messagesPerContact} messages a minute over all its conversations. ` +
          `Files go as multipart/form-data (Chatwoot's form): content (optional with files), echo_id and up to ${MAX_FILES_PER_MESSAGE} attachments[], checked by their bytes: ` +
          'PNG, JPEG, GIF, WebP or PDF (anything else 415), together at most 10 MB by default (413), images of at most 40 megapixels (422); a compressed body is 415.',
        params: conversationParams,
        body: MessagePayload,
        bodyLimit: MESSAGE_BODY_LIMIT,
        multipart: {
          fields: MessageFormFields,
          files: { 'attachments[]': 'A photo or a PDF (the field may come several times)' },
          limit: client.attachmentBodyLimit,
        },
        responses: { 200: { description: 'The message.', schema: PublicMessage } },
        errors: [...errors, 'invalid_state', 'unprocessable'],
      },
      async (ctx, { params, body, files }) => {
        const counted = await client.count('messagesPerContact', ctx.state.contact.id, messagesPerContact);
        refuseOverLimit(ctx, counted, `A contact may send ${messagesPerContact} messages a minute.`);
        const stray = files.find((file) => file.field !== 'attachments[]' && file.field !== 'attachments');
        if (stray)
          throw new ParleyError('invalid_request', `Send files as attachments[], not ${stray.field}.`, {
            problems: [{ field: stray.field, message: 'not a field of this form' }],
          });
        if (files.length > 0) {
          ctx.body = await client.createMessageWithAttachments(
            ctx.state.contact,
            ctx.state.address,
            params.conversation_id,
            body.content || undefined,
            body.echo_id,
            files,
          );
          return;
        }
        if (!body.content)
          throw new ParleyError('invalid_request', 'Send content, attachments[], or both.', {
            problems: [{ field: 'content', message: 'required without attachments' }],
          });
        ctx.body = await client.createMessage(
          ctx.state.contact,
          ctx.state.address,
          params.conversation_id,
          body.content,
          body.echo_id,
        );
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/contacts/:contact_identifier/conversations/:conversation_id/attachments/:attachment_id`,
        tag,
        summary: "A file of the contact's conversation (a message's data_url)",
        description:
          "The bytes, with the type they were checked to be, nosniff, a sandboxing Content-Security-Policy, inline for images and as a download for PDFs. Another contact's file is 404.",
        params: conversationParams.extend({ attachment_id: z.string().max(20) }),
        responses: { 200: { description: 'The file.', contentType: 'application/octet-stream', schema: z.string() } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        const { attachment, bytes } = await client.attachment(
          ctx.state.contact,
          params.conversation_id,
          params.attachment_id,
        );
        sendAttachment(ctx, attachment, bytes);
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/contacts/:contact_identifier/conversations/:conversation_id/messages`,
        tag,
        summary: `The latest ${CLIENT_API_PAGES.messages} messages, oldest first; before=<id> for the ${CLIENT_API_PAGES.messages} before that message`,
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
        ctx.body = await client.updateMessage(
          ctx.state.contact,
          ctx.state.address,
          params.conversation_id,
          params.message_id,
          body.submitted_values,
        );
      },
    )
    .add(
      {
        method: 'get',
        path: '/public/api/v1/csat_survey/:uuid',
        tag: 'Survey',
        summary: 'The survey of a conversation',
        params: z.strictObject({ uuid: z.string().max(64) }),
        responses: { 200: { description: 'The survey.', schema: CsatSurvey } },
        errors: ['not_found', 'rate_limited'],
      },
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
        errors: ['not_found', 'unprocessable', 'rate_limited'],
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
    csat_survey_response:
      row.rating === null
        ? null
        : {
            rating: row.rating,
            feedback_message: row.comment ?? '',
            conversation_id: row.id,
            created_at: row.survey_at?.toISOString(),
          },
    display_type: 'star',
    content: 'Please rate this conversation.',
    inbox_avatar_url: inbox.presentation.avatarUrl,
    inbox_name: inbox.name,
    locale: inbox.locale,
    conversation_id: row.id,
    created_at: row.created_at.toISOString(),
  };
}
