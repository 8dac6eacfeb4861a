/**
 * `POST /v1/widget/conversations/{id}/transcript`: the widget's "E-mail me this conversation"
 * (issue 32). The transcript is noted in the outbox (migration 032) and sent by the e-mail timer,
 * once, to the address kept for the conversation; one a conversation each 10 minutes.
 */
import { z } from 'zod';
import { ConversationUuid, ParleyError } from '../../shared/index.ts';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import type { WidgetState } from '../widget/session-auth.ts';
import { customerEmail } from './email-store.ts';
import { TRANSCRIPT_INTERVAL_MS } from './email-settings.ts';
import { requestTranscript } from './transcript-store.ts';

const TranscriptAnswer = z.object({ sent_to: z.string().describe('The address the transcript is e-mailed to.') });

export function addTranscriptRoutes(
  routes: ApiRoutes<WidgetState>,
  {
    sql,
    conversations,
    sending,
    now,
  }: { sql: Sql; conversations: Pick<ConversationService, 'mine'>; sending: boolean; now: () => Date },
): void {
  routes.add(
    {
      method: 'post',
      path: '/v1/widget/conversations/:id/transcript',
      tag: 'Widget',
      security: 'sessionToken',
      summary: 'E-mail me this conversation',
      description:
        "Sends the conversation so far, once, to the address kept for it (set it first with PUT …/email). 409 invalid_state without an address, 422 not_available when this installation sends no e-mail (SMTP_URL unset), 429 rate_limited with Retry-After when the conversation's transcript was asked for in the last 10 minutes.",
      params: ConversationUuid,
      body: z.strictObject({}),
      responses: { 202: { description: 'The transcript will be sent.', schema: TranscriptAnswer } },
      errors: ['not_found', 'invalid_state', 'not_available', 'rate_limited'],
    },
    async (ctx, { params }) => {
      const conversation = await conversations.mine(ctx.state.session, params.id);
      if (!sending) throw new ParleyError('not_available', 'This chat sends no e-mail.');
      const sentTo = await customerEmail(sql, conversation.id);
      if (!sentTo) throw new ParleyError('invalid_state', 'No address is kept for this conversation: give one first.');
      const at = now();
      const asked = await requestTranscript(sql, {
        conversationId: conversation.id,
        sentTo,
        now: at,
        notBefore: new Date(at.getTime() - TRANSCRIPT_INTERVAL_MS),
      });
      if (!asked.requested) {
        const waitMs = asked.lastAt.getTime() + TRANSCRIPT_INTERVAL_MS - at.getTime();
        throw new ParleyError('rate_limited', 'This conversation was e-mailed a moment ago.').retryAfter(waitMs / 1000);
      }
      ctx.status = 202;
      ctx.body = { sent_to: sentTo };
    },
  );
}
