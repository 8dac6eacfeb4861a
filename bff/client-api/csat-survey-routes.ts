/** The Client API's CSAT survey of a conversation by its UUID: `/public/api/v1/csat_survey/{uuid}`. */
import { z } from 'zod';
import type { ApiRoutes } from '../../shared/server/index.ts';
import type { ClientService } from './client-service.ts';
import { CsatSurvey, CsatUpdatePayload } from './schemas.ts';

const tag = 'Survey';
const surveyParams = z.strictObject({ uuid: z.string().max(64) });

/** Needs nothing of `ctx.state`: the survey's UUID is its own capability. */
export function addCsatSurveyRoutes<State extends object>(routes: ApiRoutes<State>, client: ClientService): void {
  routes
    .add(
      {
        method: 'get',
        path: '/public/api/v1/csat_survey/:uuid',
        tag,
        summary: 'The survey of a conversation',
        params: surveyParams,
        responses: { 200: { description: 'The survey.', schema: CsatSurvey } },
        errors: ['not_found', 'rate_limited'],
      },
      async (ctx, { params }) => {
        ctx.body = csatShape(await client.survey(params.uuid));
      },
    )
    .add(
      {
        method: 'put',
        path: '/public/api/v1/csat_survey/:uuid',
        tag,
        summary: 'Answer the survey',
        params: surveyParams,
        body: CsatUpdatePayload,
        responses: { 200: { description: 'The survey with the answer.', schema: CsatSurvey } },
        errors: ['not_found', 'unprocessable', 'rate_limited'],
      },
      async (ctx, { params, body }) => {
        const { rating, feedback_message } = body.message.submitted_values.csat_survey_response;
        ctx.body = csatShape(await client.answerSurvey(params.uuid, rating, feedback_message ?? ''));
      },
    );
}

function csatShape({ row, inbox }: Awaited<ReturnType<ClientService['survey']>>): CsatSurvey {
  return {
    id: row.csat_id,
    csat_survey_response:
      row.rating === null
        ? null
        : {
            rating: row.rating,
            feedback_message: row.comment ?? '',
            conversation_id: row.id,
            created_at: row.survey_at?.toISOString(),
          },
    display_type: 'star',
    content: 'Please rate this conversation.',
    inbox_avatar_url: inbox.presentation.avatarUrl,
    inbox_name: inbox.name,
    locale: inbox.locale,
    conversation_id: row.id,
    created_at: row.created_at.toISOString(),
  };
}
