import { z } from 'zod';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import type { AttachmentService } from './attachment-service.ts';
import { sendAttachment } from './serve.ts';
import { requireStanding, type ApplicationState } from '../helpdesk/auth.ts';
import type { DeskConversationService } from '../helpdesk/desk-conversation-service.ts';
import { ConversationParams } from '../../shared/schemas/helpdesk/index.ts';

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
