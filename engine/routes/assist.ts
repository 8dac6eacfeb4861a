import { z } from 'zod';
import { AssistRequest, AssistResponse } from '../../shared/schemas/assist.ts';
import type { ApiRoutes } from '../../shared/server/index.ts';
import type { EngineState } from '../auth.ts';
import type { Assist } from '../conversations/assist.ts';

const params = z.strictObject({ id: z.string().max(100).describe('The conversation id (cnv_…)') });

/** `POST /v1/conversations/{id}/assist`: the copilot for the people who answer a conversation. */
export function addAssistRoutes(routes: ApiRoutes<EngineState>, assist: Assist): void {
  routes.add(
    {
      method: 'post',
      path: '/v1/conversations/:id/assist',
      tag: 'Conversations',
      security: 'apiKey',
      summary: 'Help a person answer: a suggested reply with its sources, a summary, the customer’s language',
      description:
        "Grounded in the account's approved knowledge: the retrieval brain suggests a reply (the articles' words) for the customer's open question, or an LLM writes it from the best passages when one is configured. With no good source the suggestion is null and `reason` says why. `summary` is the conversation so far in two lines. With `draft`, an LLM improves the person's draft instead (422 unprocessable, details.reason not_available, without one; 503 while it cannot be reached). Nothing in the conversation changes and no event is recorded.",
      params,
      body: AssistRequest,
      responses: {
        200: {
          description: 'The suggestion (or why there is none), the summary and the language.',
          schema: AssistResponse,
        },
      },
      errors: ['not_found', 'unprocessable', 'upstream_unavailable'],
    },
    async (ctx, { params, body }) => {
      ctx.body = await assist.assist(ctx.state.caller, params.id, body);
    },
  );
}
