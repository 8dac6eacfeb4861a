/**
 * `POST /v1/email-continuations`: the link of a digest, used once. The hosted /chat page reads the
 * token from the link's fragment (`#continue=<token>`) and trades it here for a widget session of
 * the conversation's customer, then opens that conversation.
 */
import { z } from 'zod';
import { ParleyError, WidgetSession } from '../../shared/index.ts';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import type { WidgetSessions } from '../widget/sessions.ts';
import { findConversationById } from '../store/conversations.ts';
import { useContinuation } from './email-store.ts';
import { emailTokenHash } from './email-tokens.ts';

const ContinuationRequest = z.strictObject({
  token: z
    .string()
    .regex(/^[0-9a-f]{40}$/, 'the 40 hexadecimal digits after #continue= in the link')
    .describe('The token of the digest link (after `#continue=`).'),
});

const Continuation = WidgetSession.extend({
  conversation_id: z.string().describe('The conversation the link opens.'),
});

/** The session of a continuation lives as a widget session does, and is renewed as a visitor's is. */
const CONTINUATION_SESSION_TTL_S = 3600;

export function addContinuationRoutes(
  routes: ApiRoutes,
  { sql, sessions, now }: { sql: Sql; sessions: Pick<WidgetSessions, 'issue'>; now: () => Date },
): void {
  routes.add(
    {
      method: 'post',
      path: '/v1/email-continuations',
      tag: 'Sessions',
      summary: 'Open a conversation again from the link of an e-mail (once)',
      description:
        "Trades the single-use token of a digest's link for a widget session of the conversation's customer (never verified: the link proves the mailbox, not the shop's word). A token works once and for 7 days.",
      body: ContinuationRequest,
      responses: { 201: { description: 'A session and the conversation to open.', schema: Continuation } },
      errors: ['not_found'],
    },
    async (ctx, { body }) => {
      const conversationId = await useContinuation(sql, emailTokenHash(body.token), now());
      const conversation = conversationId === undefined ? undefined : await findConversationById(sql, conversationId);
      if (!conversation) throw new ParleyError('not_found', 'This link is unknown, has expired or was used already.');
      const issued = await sessions.issue(
        {
          customerRef: conversation.customerRef,
          inboxId: conversation.inboxId,
          verified: false,
          environment: conversation.environment,
        },
        CONTINUATION_SESSION_TTL_S,
      );
      ctx.status = 201;
      ctx.body = {
        token: issued.token,
        ttl_s: CONTINUATION_SESSION_TTL_S,
        expires_at: issued.expiresAt.toISOString(),
        customer_ref: conversation.customerRef,
        verified: false,
        conversation_id: conversation.uuid,
      } satisfies z.infer<typeof Continuation>;
    },
  );
}
