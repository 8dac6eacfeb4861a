/**
 * Assist in the console (issue 29): the engine's suggested reply, summary and customer language
 * for a conversation the person may see (administrators every inbox, agents the inboxes they
 * answer). The engine only reads; nothing here is stored.
 */
import { ParleyError } from '../../shared/index.ts';
import { AssistRequest, AssistResponse } from '../../shared/schemas/assist.ts';
import { ConversationParams } from '../../shared/schemas/helpdesk/index.ts';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { EngineCallError } from '../engine-link/engine-client.ts';
import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import type { ConversationRecord } from '../store/conversations.ts';
import { requireStanding, type ApplicationState } from './auth.ts';
import type { DeskConversationService } from './desk-conversation-service.ts';
import { engineFailure } from './desk-engine-moves.ts';

export interface DeskAssistDeps {
  desk: Pick<DeskConversationService, 'find'>;
  engines: Pick<EngineAccounts, 'forInbox'>;
  sql: Sql;
}

/** The engine's refusals that are the request's (a draft with no model to improve it), told as they are. */
function assistFailure(error: unknown): never {
  if (
    error instanceof EngineCallError &&
    (error.code === 'unprocessable' || error.code === 'not_available' || error.code === 'not_found')
  )
    throw new ParleyError(error.code, error.message);
  return engineFailure(error);
}

/** Asks the engine, with the key of the conversation's account and environment. */
async function assistFor(
  engines: DeskAssistDeps['engines'],
  record: ConversationRecord,
  request: AssistRequest,
): Promise<AssistResponse> {
  if (!record.engineConversationId)
    throw new ParleyError(
      'invalid_state',
      "The customer's first message has not reached the AI engine yet: ask for help again in a moment.",
    );
  const engine = await engines.forInbox(record.inboxId, record.environment);
  return engine.assist(record.engineConversationId, request).catch(assistFailure);
}

export function addDeskAssistRoutes(routes: ApiRoutes<ApplicationState>, { desk, engines, sql }: DeskAssistDeps): void {
  routes.add(
    {
      method: 'post',
      path: '/api/v1/accounts/:account_id/conversations/:conversation_id/assist',
      tag: 'Application API',
      security: 'accessToken',
      summary:
        "The AI's help to answer: a suggested reply with its sources, a two-line summary, the customer's language",
      description:
        "The AI engine's assist (`POST /v1/conversations/{id}/assist`) for this conversation: a reply grounded in the knowledge base (null, with the reason, when nothing answers well), the conversation so far in two lines, and the customer's language. With `draft`, an LLM improves the draft instead (422 when the engine has none). Nothing is changed or sent: the person decides.",
      params: ConversationParams,
      body: AssistRequest,
      responses: {
        200: {
          description: 'The suggestion (or why there is none), the summary and the language.',
          schema: AssistResponse,
        },
      },
      errors: ['unauthorized', 'not_found', 'unprocessable', 'invalid_state', 'upstream_unavailable'],
    },
    async (ctx, { params, body }) => {
      const standing = await requireStanding(sql, ctx.state.caller, params.account_id);
      const conversation = await desk.find(params.account_id, ctx.state.caller, standing, params.conversation_id);
      ctx.body = await assistFor(engines, conversation.record, body);
    },
  );
}
