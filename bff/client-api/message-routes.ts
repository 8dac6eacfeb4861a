/**
 * The Client API's messages of a contact's conversation, and their files:
 * `/public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations/{conversation_id}/messages[/{message_id}]`
 * and `…/attachments/{attachment_id}`.
 */
import { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import { MESSAGE_BODY_LIMIT, type ApiRoutes, type UploadedFile } from '../../shared/server/index.ts';
import { MAX_FILES_PER_MESSAGE } from '../attachments/attachment-service.ts';
import { sendAttachment } from '../attachments/serve.ts';
import type { ClientService } from './client-service.ts';
import { CLIENT_API_PAGES, refuseOverLimit, type ClientApiLimits } from './limits.ts';
import {
  base,
  conversationParams,
  errors,
  messageParams,
  tag,
  type AddressState,
  type ContactState,
} from './route-paths.ts';
import { MessageFormFields, MessagePayload, MessagesQuery, MessageUpdatePayload, PublicMessage } from './schemas.ts';

/** Sending, listing and answering a conversation's messages. */
export function addMessageRoutes<State extends AddressState & ContactState>(
  routes: ApiRoutes<State>,
  client: ClientService,
  { messagesPerContact }: ClientApiLimits,
): void {
  routes
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
        errors: [...errors, 'invalid_state', 'unprocessable', 'storage_full'],
      },
      async (ctx, { params, body, files }) => {
        const counted = await client.count('messagesPerContact', ctx.state.contact.id, messagesPerContact);
        refuseOverLimit(ctx, counted, `A contact may send ${messagesPerContact} messages a minute.`);
        ctx.body = await sendMessage(client, ctx.state, params.conversation_id, body, files);
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
    );
}

/** A file of a contact's conversation, where a message's `data_url` points. */
export function addAttachmentRoutes<State extends ContactState>(routes: ApiRoutes<State>, client: ClientService): void {
  routes.add(
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
  );
}

/** What a `POST …/messages` sends: files as `attachments[]` (with content or without), or content alone. */
async function sendMessage(
  client: ClientService,
  { contact, address }: AddressState & Pick<ContactState, 'contact'>,
  conversationId: string,
  body: { content?: string | undefined; echo_id?: string | undefined },
  files: readonly UploadedFile[],
) {
  const stray = files.find((file) => file.field !== 'attachments[]' && file.field !== 'attachments');
  if (stray)
    throw new ParleyError('invalid_request', `Send files as attachments[], not ${stray.field}.`, {
      problems: [{ field: stray.field, message: 'not a field of this form' }],
    });
  if (files.length > 0) {
    return client.createMessageWithAttachments(
      contact,
      address,
      conversationId,
      body.content || undefined,
      body.echo_id,
      files,
    );
  }
  if (!body.content)
    throw new ParleyError('invalid_request', 'Send content, attachments[], or both.', {
      problems: [{ field: 'content', message: 'required without attachments' }],
    });
  return client.createMessage(contact, address, conversationId, body.content, body.echo_id);
}
