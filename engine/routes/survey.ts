import { ConversationIdParams, SurveyResponseRecord, SurveyResponseRequest } from '../../shared/index.ts';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import type { EngineState } from '../auth.ts';
import { recordSurveyResponse } from '../store/surveys.ts';

/** `POST /v1/conversations/{id}/survey`: the customer's satisfaction rating, for `survey.response` and the reports' CSAT. */
export function addSurveyRoutes(routes: ApiRoutes<EngineState>, { sql, now }: { sql: Sql; now: () => Date }): void {
  routes.add(
    {
      method: 'post',
      path: '/v1/conversations/:id/survey',
      tag: 'Reports',
      security: 'apiKey',
      summary: "Record the customer's answer to the satisfaction survey",
      description:
        'A rating from 1 to 5 with an optional comment, in any state of the conversation (usually after its close). The latest answer counts: a new or changed answer emits survey.response {rating, comment?, customer_ref}; the same answer again changes nothing and emits nothing. GET /v1/reports/summary averages the ratings.',
      params: ConversationIdParams,
      body: SurveyResponseRequest,
      responses: { 200: { description: 'The answer as kept.', schema: SurveyResponseRecord } },
      errors: ['not_found'],
    },
    async (ctx, { params, body }) => {
      ctx.body = await recordSurveyResponse(sql, ctx.state.caller, params.id, body, now());
    },
  );
}
