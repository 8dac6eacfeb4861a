/**
 * `PUT /v1/widget/conversations/{id}/email`: the address a customer gives (or changes, or removes)
 * to get the answers of a conversation by e-mail when they are not there to read them. The widget's
 * "Get the reply by e-mail?" ask calls it; it is kept with the conversation, where the pre-chat
 * form's address goes too.
 */
import { z } from 'zod';
import { ConversationUuid } from '../../shared/index.ts';
import type { ApiRoutes, Queryable } from '../../shared/server/index.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import type { WidgetState } from '../widget/session-auth.ts';

const EmailRequest = z.strictObject({
  email: z.email().max(320).nullable().describe('The address to e-mail missed answers to; null removes it.'),
});
const EmailAnswer = z.object({ email: z.string().nullable() });

async function setConversationEmail(db: Queryable, conversationId: number, email: string | null): Promise<void> {
  await db.query('UPDATE conversations SET contact_email = $2 WHERE id = $1', [conversationId, email]);
}

export function addWidgetEmailRoutes(
  routes: ApiRoutes<WidgetState>,
  { sql, conversations }: { sql: Queryable; conversations: Pick<ConversationService, 'mine'> },
): void {
  routes.add(
    {
      method: 'put',
      path: '/v1/widget/conversations/:id/email',
      tag: 'Widget',
      security: 'sessionToken',
      summary: 'Get the answers by e-mail (set, change or remove the address)',
      description:
        'Answers of this conversation the customer has not read are e-mailed to this address when SMTP_URL is set (README: Conversations by e-mail); null stops that. A customer reaches only their own conversations (404 otherwise).',
      params: ConversationUuid,
      body: EmailRequest,
      responses: { 200: { description: 'The address kept.', schema: EmailAnswer } },
      errors: ['not_found'],
    },
    async (ctx, { params, body }) => {
      const conversation = await conversations.mine(ctx.state.session, params.id);
      const email = body.email?.trim() ?? null;
      await setConversationEmail(sql, conversation.id, email);
      ctx.body = { email };
    },
  );
}
