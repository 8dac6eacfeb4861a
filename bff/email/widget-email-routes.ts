/**
 * The widget's routes for a conversation's e-mail (issue 32): `GET …/email` says whether e-mail
 * is on, the address kept and when to ask for one ("Get the reply by e-mail?"); `PUT …/email` sets,
 * changes or removes the address the answers a customer missed are e-mailed to (kept with the
 * conversation, where the pre-chat form's address goes too, and on the customer's contact, so their
 * next conversation has it; removing it clears it there too).
 */
import { z } from 'zod';
import { ConversationUuid } from '../../shared/index.ts';
import type { ApiRoutes, Queryable, Sql } from '../../shared/server/index.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import type { ConversationRecord } from '../store/conversations.ts';
import type { WidgetState } from '../widget/session-auth.ts';
import { emailAskAt, skipEmailAsk } from './email-asking.ts';
import { customerEmail, keepContactEmail } from './email-store.ts';

const EmailRequest = z.strictObject({
  email: z.email().max(320).nullable().describe('The address to e-mail missed answers to; null removes it.'),
});
const EmailAnswer = z.object({ email: z.string().nullable() });
const EmailState = z.object({
  email: z.string().nullable().describe("The address this conversation's answers are e-mailed to; null: none."),
  sending: z.boolean().describe('Whether answers and transcripts are e-mailed here at all (SMTP_URL is set).'),
  ask_at: z
    .string()
    .nullable()
    .describe(
      'When the widget offers "Get the reply by e-mail?": now while nobody answers, else EMAIL_ASK_AFTER_S after an unanswered handover; null: not to ask.',
    ),
});

/** What the widget's e-mail routes need besides the conversations. */
export interface WidgetEmailOptions {
  /** Whether SMTP_URL is set. */
  sending: boolean;
  askAfterS: number;
  now: () => Date;
}

async function setConversationEmail(db: Queryable, conversationId: number, email: string | null): Promise<void> {
  await db.query('UPDATE conversations SET contact_email = $2 WHERE id = $1', [conversationId, email]);
}

/** The address on the conversation and on the customer's contact, together. */
async function setCustomerEmail(sql: Sql, conversation: ConversationRecord, email: string | null, now: Date) {
  await sql.transaction(async (tx) => {
    await setConversationEmail(tx, conversation.id, email);
    await keepContactEmail(tx, conversation, email, now);
  });
}

export function addWidgetEmailRoutes(
  routes: ApiRoutes<WidgetState>,
  {
    sql,
    conversations,
    options,
  }: { sql: Sql; conversations: Pick<ConversationService, 'mine'>; options: WidgetEmailOptions },
): void {
  routes.add(
    {
      method: 'get',
      path: '/v1/widget/conversations/:id/email',
      tag: 'Widget',
      security: 'sessionToken',
      summary: 'Whether and when to ask for an address for the answers',
      description:
        'The address kept, whether e-mail is on (README: Conversations by e-mail), and when the widget asks "Get the reply by e-mail?". A customer reaches only their own conversations (404 otherwise).',
      params: ConversationUuid,
      responses: { 200: { description: 'The e-mail state of the conversation.', schema: EmailState } },
      errors: ['not_found'],
    },
    async (ctx, { params }) => {
      const conversation = await conversations.mine(ctx.state.session, params.id);
      const now = options.now();
      const askAt = await emailAskAt(sql, conversation, {
        emailOn: options.sending,
        askAfterS: options.askAfterS,
        now,
      });
      ctx.body = {
        email: await customerEmail(sql, conversation.id),
        sending: options.sending,
        ask_at: askAt && askAt.toISOString(),
      } satisfies z.infer<typeof EmailState>;
    },
  );

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
      await setCustomerEmail(sql, conversation, email, options.now());
      ctx.body = { email };
    },
  );

  routes.add(
    {
      method: 'post',
      path: '/v1/widget/conversations/:id/email/skip',
      tag: 'Widget',
      security: 'sessionToken',
      summary: 'Skip "Get the reply by e-mail?" in this conversation',
      description:
        'The customer skipped the ask: it is not asked again in this conversation (GET …/email then gives ask_at null), after a reload too. The address form of the options menu still works. A customer reaches only their own conversations (404 otherwise).',
      params: ConversationUuid,
      responses: { 204: { description: 'Kept.' } },
      errors: ['not_found'],
    },
    async (ctx, { params }) => {
      const conversation = await conversations.mine(ctx.state.session, params.id);
      await skipEmailAsk(sql, conversation.id, options.now());
      ctx.status = 204;
    },
  );
}
