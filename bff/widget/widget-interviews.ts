import { ParleyError, randomToken, type WidgetConversation } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { EngineCallError } from '../engine-link/engine-client.ts';
import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import type { EngineEventRecorder } from '../engine-link/engine-events.ts';
import { engineFailure } from '../helpdesk/desk-engine-moves.ts';
import type { Publisher } from '../realtime/publisher.ts';
import { attachEngineConversation, insertConversation } from '../store/conversations.ts';
import { readInterviewOffer } from '../store/interview-offers.ts';
import { conversationViews } from '../store/views.ts';
import { givenCustomerRef } from './customer-refs.ts';
import type { Customer } from './sessions.ts';

export interface WidgetInterviewDeps {
  sql: Sql;
  engines: Pick<EngineAccounts, 'forInbox'>;
  recorder: Pick<EngineEventRecorder, 'record'>;
  publisher: Publisher;
  now: () => Date;
}

/** The engine's refusals that are the visitor's to hear: no such interview here, or the AI switched off. */
function interviewFailure(error: unknown): never {
  if (error instanceof EngineCallError && (error.code === 'not_found' || error.code === 'invalid_state'))
    throw new ParleyError(error.code, `The interview cannot start: ${error.message}`);
  return engineFailure(error);
}

/**
 * A visitor starts the research interview their inbox offers on the widget's home screen (issue 29).
 * The engine's conversation is opened by its interview sessions route (not the usual open), with the
 * key of the inbox's engine account and the visitor's environment; the BFF's conversation is made only
 * once the engine has one, then its first words (the intro and the first question with its choices)
 * are recorded as any AI answer is, so they reach the widget as messages with quick replies.
 */
export function createWidgetInterviews({ sql, engines, recorder, publisher, now }: WidgetInterviewDeps) {
  return {
    async start(customer: Customer, interviewId: string, locale?: string): Promise<WidgetConversation> {
      const offer = await readInterviewOffer(sql, customer.inboxId);
      if (offer?.interview_id !== interviewId)
        throw new ParleyError('not_found', `This inbox offers no interview ${interviewId}.`);
      const engine = await engines.forInbox(customer.inboxId, customer.environment);
      const opened = await engine
        .openInterviewSession(
          interviewId,
          { customer_ref: givenCustomerRef(customer.customerRef), locale },
          `interview-${randomToken(16)}`,
        )
        .catch(interviewFailure);
      const conversation = await sql.transaction(async (tx) => {
        const created = await insertConversation(tx, customer, now(), { locale });
        created.engineConversationId = await attachEngineConversation(tx, created.id, opened.conversation.id);
        await publisher.record(tx, created, [{ type: 'conversation.created' }]);
        return created;
      });
      publisher.publish(conversation, { type: 'conversation.created' });
      await recorder.record(conversation, opened.events);
      const [view] = await conversationViews(sql, { ...customer, id: conversation.id });
      return view!;
    },
  };
}

export type WidgetInterviews = ReturnType<typeof createWidgetInterviews>;
