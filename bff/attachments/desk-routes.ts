import { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { ApiRoutes, Sql, UploadedFile } from '../../shared/server/index.ts';
import { MAX_FILES_PER_MESSAGE, type AttachmentService } from './attachment-service.ts';
import type { DeskFiles } from './desk-files.ts';
import { sendAttachment } from './serve.ts';
import { requireStanding, type ApplicationState, type Caller } from '../helpdesk/auth.ts';
import type { DeskConversationService } from '../helpdesk/desk-conversation-service.ts';
import type { Role } from '../helpdesk/store/accounts.ts';
import { ConversationParams, type DeskMessage, type DeskMessageCreate } from '../../shared/schemas/helpdesk/index.ts';

/** The text fields of an answer sent as multipart/form-data with `attachments[]` (Chatwoot's form). */
export const DeskMessageForm = z.strictObject({
  content: z.string().trim().max(150_000).optional(),
  private: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** Chatwoot's clients say so; a person's message is always outgoing. */
  message_type: z.literal('outgoing').optional(),
  echo_id: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\w.:-]+$/, 'letters, digits, _ . : -')
    .optional(),
});

/** `multipart` of `POST …/conversations/{id}/messages`: the form above and its files. */
export const deskMessageMultipart = (files: Pick<DeskFiles, 'bodyLimit'>) => ({
  fields: DeskMessageForm,
  files: { 'attachments[]': `A photo or a PDF (the field may come up to ${MAX_FILES_PER_MESSAGE} times)` },
  limit: files.bodyLimit,
});

/** Whose answer, where: the account, the caller, their standing and the conversation. */
type AnswerPlace = readonly [accountId: number, caller: Caller, standing: Role | 'bot', id: number];

/**
 * What a `POST …/messages` sends: files as `attachments[]` (with words or without) go to
 * `DeskFiles`, words alone to `answer` (the JSON body, or a form without files).
 */
export async function sendDeskMessage(
  {
    files: deskFiles,
    answer,
  }: { files: DeskFiles; answer: (body: z.output<typeof DeskMessageCreate>) => Promise<DeskMessage> },
  place: AnswerPlace,
  body: z.output<typeof DeskMessageCreate> | z.output<typeof DeskMessageForm>,
  files: readonly UploadedFile[],
): Promise<DeskMessage> {
  const stray = files.find((file) => file.field !== 'attachments[]' && file.field !== 'attachments');
  if (stray)
    throw new ParleyError('invalid_request', `Send files as attachments[], not ${stray.field}.`, {
      problems: [{ field: stray.field, message: 'not a field of this form' }],
    });
  if (files.length > 0) return deskFiles.send(...place, { ...body, content: body.content || undefined }, files);
  if (!body.content)
    throw new ParleyError('invalid_request', 'Send content, attachments[], or both.', {
      problems: [{ field: 'content', message: 'required without attachments' }],
    });
  return answer({ content: body.content, private: body.private, echo_id: body.echo_id });
}

/**
 * People read a customer's files (a message's `data_url` in the Application API) with their
 * access token or console session, for a conversation they may see (agents: the inboxes they
 * answer); anyone else gets what any conversation route gives them (401, 404).
 */
export function addDeskAttachmentRoutes(
  routes: ApiRoutes<ApplicationState>,
  { desk, attachments, sql }: { desk: DeskConversationService; attachments: AttachmentService; sql: Sql },
): void {
  routes.add(
    {
      method: 'get',
      path: '/api/v1/accounts/:account_id/conversations/:conversation_id/attachments/:attachment_id',
      tag: 'Application API',
      security: 'accessToken',
      summary: "A file a customer sent (a message's data_url)",
      description:
        'The bytes, with the type they were checked to be, nosniff, a sandboxing Content-Security-Policy, inline for images and as a download for PDFs.',
      params: ConversationParams.extend({ attachment_id: z.string().max(20) }),
      responses: { 200: { description: 'The file.', contentType: 'application/octet-stream', schema: z.string() } },
      errors: ['unauthorized', 'not_found'],
    },
    async (ctx, { params }) => {
      const standing = await requireStanding(sql, ctx.state.caller, params.account_id);
      const conversation = await desk.get(params.account_id, ctx.state.caller, standing, params.conversation_id);
      const { attachment, bytes } = await attachments.open(conversation.id, params.attachment_id);
      sendAttachment(ctx, attachment, bytes);
    },
  );
}
