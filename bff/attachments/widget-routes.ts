import { z } from 'zod';
import { AttachmentParams, ConversationUuid, SendWidgetAttachmentFields, WidgetMessage } from '../../shared/index.ts';
import { clientLimitKey, type ApiRoutes } from '../../shared/server/index.ts';
import type { AttachmentService } from './attachment-service.ts';
import { sendAttachment } from './serve.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import type { WidgetState } from '../widget/session-auth.ts';

const tag = 'Widget';
const security = 'sessionToken';

/**
 * The widget's attachments: a customer sends a photo or a PDF into their conversation, and reads
 * back the files of their own conversations (with the same `wst_` session token, in the header).
 * A file is a message too, counted as one against the client's address (`trustProxyHops`).
 */
export function addWidgetAttachmentRoutes(
  routes: ApiRoutes<WidgetState>,
  attachments: AttachmentService,
  conversations: Pick<ConversationService, 'mine'>,
  trustProxyHops: number,
): void {
  routes
    .add(
      {
        method: 'post',
        path: '/v1/widget/conversations/:id/attachments',
        tag,
        security,
        summary: 'Send a file (a photo, a PDF, a voice note or a video), with words or without',
        description:
          'multipart/form-data with one `file`, a `message_id` made by the client (sending it again returns the first copy, 200, and keeps nothing), and optional `text`. ' +
          'The file is checked by its bytes, never its name: PNG, JPEG, GIF, WebP, PDF, a voice note (Ogg/Opus, WebM, M4A, MP3, WAV) or a video (MP4, WebM) (anything else 415), at most 10 MB by default (413), ' +
          'an image of at most 40 megapixels and 16,384 pixels a side, a voice note of at most 5 minutes, a video of at most 3 minutes (422). A compressed body (Content-Encoding) is 415. ' +
          "A file past the account's storage (ATTACHMENTS_STORAGE_MAX_BYTES) is 413 storage_full, and nothing is kept. " +
          'It becomes a message like a text message; the AI is told the file came, by its name ("[photo: name.jpg]", "[voice note: name.ogg]").',
        params: ConversationUuid,
        multipart: {
          fields: SendWidgetAttachmentFields,
          files: { file: 'The photo, PDF, voice note or video' },
          limit: attachments.bodyLimit,
        },
        responses: {
          201: { description: 'The stored message with its attachment.', schema: WidgetMessage },
          200: { description: 'The message stored earlier with this message_id.', schema: WidgetMessage },
        },
        errors: ['not_found', 'invalid_state', 'unprocessable', 'storage_full'],
      },
      async (ctx, { params, body, files }) => {
        const sender = { ...ctx.state.session, address: clientLimitKey(ctx.req, trustProxyHops) };
        const sent = await attachments.send(
          sender,
          params.id,
          { text: body.text, messageId: body.message_id, uploader: 'widget' },
          files,
        );
        ctx.status = sent.created ? 201 : 200;
        ctx.body = sent.message;
      },
    )
    .add(
      {
        method: 'get',
        path: '/v1/widget/conversations/:id/attachments/:attachment_id',
        tag,
        security,
        summary: "A file of the customer's conversation",
        description:
          "The bytes, with the type they were checked to be, nosniff, a sandboxing Content-Security-Policy, inline for images, voice notes and videos and as a download for PDFs. Another customer's file is 404.",
        params: AttachmentParams,
        responses: { 200: { description: 'The file.', contentType: 'application/octet-stream', schema: z.string() } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        const conversation = await conversations.mine(ctx.state.session, params.id);
        const { attachment, bytes } = await attachments.open(conversation.id, params.attachment_id);
        sendAttachment(ctx, attachment, bytes);
      },
    );
}
