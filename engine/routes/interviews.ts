import { ConversationChange } from '../../shared/index.ts';
import {
  CreateInterviewRequest,
  Interview,
  InterviewList,
  InterviewListQuery,
  InterviewParams,
  InterviewResponseList,
  InterviewResponsesQuery,
  OpenInterviewSessionRequest,
  UpdateInterviewRequest,
} from '../../shared/schemas/interviews.ts';
import { MESSAGE_BODY_LIMIT, type ApiRoutes, type Sql } from '../../shared/server/index.ts';
import type { EngineState } from '../auth.ts';
import { createInterviewOpening } from '../conversations/interview-opening.ts';
import { INTERVIEW_ANSWER_MAX, pageResponses } from '../store/interview-sessions.ts';
import {
  deleteInterview,
  findInterview,
  insertInterview,
  INTERVIEWS_MAX,
  pageInterviews,
  updateInterview,
} from '../store/interviews.ts';

const tag = 'Interviews';
const security = 'apiKey';
const params = InterviewParams;

interface InterviewRouteDeps {
  sql: Sql;
  now: () => Date;
}

/**
 * `/v1/interviews`: research interviews the AI runs with customers, one question at a time. They
 * belong to the key's account and environment, as conversations do: a sandbox key neither sees nor
 * runs a live interview.
 */
export function addInterviewRoutes(routes: ApiRoutes<EngineState>, deps: InterviewRouteDeps): void {
  addInterviewListRoutes(routes, deps);
  addInterviewRecordRoutes(routes, deps);
  addInterviewSessionRoutes(routes, deps);
}

/** `/v1/interviews`: the interviews, a page at a time, and a new one. */
function addInterviewListRoutes(routes: ApiRoutes<EngineState>, { sql, now }: InterviewRouteDeps): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/interviews',
        tag,
        security,
        summary: 'The interviews of this key',
        description:
          'In the order they were made, a page of limit (at most 100, by default 20). Pass next as after to read on while has_more is true.',
        query: InterviewListQuery,
        responses: { 200: { description: 'A page of interviews.', schema: InterviewList } },
      },
      async (ctx, { query }) => {
        ctx.body = await pageInterviews(sql, ctx.state.caller, query);
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/interviews',
        tag,
        security,
        summary: 'Make an interview',
        description: `A title, an intro, 1 to 20 questions (each an id, a text and optionally 2 to 9 choices) and a closing line. An account holds at most ${INTERVIEWS_MAX} interviews in each environment.`,
        body: CreateInterviewRequest,
        bodyLimit: MESSAGE_BODY_LIMIT,
        responses: { 201: { description: 'The interview.', schema: Interview } },
        errors: ['unprocessable'],
      },
      async (ctx, { body }) => {
        ctx.status = 201;
        ctx.body = await insertInterview(sql, ctx.state.caller, body, now());
      },
    );
}

/** `/v1/interviews/{id}`: one interview, read, changed or deleted. */
function addInterviewRecordRoutes(routes: ApiRoutes<EngineState>, { sql, now }: InterviewRouteDeps): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/interviews/:id',
        tag,
        security,
        summary: 'One interview',
        params,
        responses: { 200: { description: 'The interview.', schema: Interview } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        ctx.body = await findInterview(sql, ctx.state.caller, params.id);
      },
    )
    .add(
      {
        method: 'patch',
        path: '/v1/interviews/:id',
        tag,
        security,
        summary: 'Change an interview',
        description:
          'The fields given replace the ones it has (questions as a whole list). Sessions opened from now on use the change; a running one keeps the questions it opened with.',
        params,
        body: UpdateInterviewRequest,
        bodyLimit: MESSAGE_BODY_LIMIT,
        responses: { 200: { description: 'The interview after the change.', schema: Interview } },
        errors: ['not_found'],
      },
      async (ctx, { params, body }) => {
        ctx.body = await updateInterview(sql, ctx.state.caller, params.id, body, now());
      },
    )
    .add(
      {
        method: 'delete',
        path: '/v1/interviews/:id',
        tag,
        security,
        summary: 'Delete an interview',
        description:
          'Its responses go with it. The conversations stay; one in the middle of the interview goes on with the AI as any other.',
        params,
        responses: { 204: { description: 'Deleted.' } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        await deleteInterview(sql, ctx.state.caller, params.id);
        ctx.status = 204;
      },
    );
}

/** `/v1/interviews/{id}/sessions` and `/responses`: running an interview with a customer, and what they answered. */
function addInterviewSessionRoutes(routes: ApiRoutes<EngineState>, { sql, now }: InterviewRouteDeps): void {
  const opening = createInterviewOpening({ sql, now });
  routes
    .add(
      {
        method: 'post',
        path: '/v1/interviews/:id/sessions',
        tag,
        security,
        summary: 'Run an interview with a customer',
        description:
          "Opens a conversation for customer_ref in which the AI asks the interview's questions one at a time; the answer carries conversation.opened, the intro and the first question (its choices and a Skip button as reply choices). Send the customer's messages to POST /v1/conversations/{id}/messages as for any conversation: a choice or free text answers; a reply with no letter or digit, or on a question with choices a single word that is none of them, is asked about once more; skip (weiter, saltar, passer) skips, stop ends, asking for a person hands over. When it ends, interview.completed carries the answers, and the conversation goes on with the AI (or people). 409 invalid_state while the AI is switched off.",
        params,
        body: OpenInterviewSessionRequest,
        responses: {
          201: {
            description: 'The new conversation and its first events.',
            schema: ConversationChange,
          },
        },
        errors: ['not_found', 'invalid_state'],
      },
      async (ctx, { params, body }) => {
        ctx.status = 201;
        ctx.body = await opening.openInterviewSession(ctx.state.caller, params.id, body);
      },
    )
    .add(
      {
        method: 'get',
        path: '/v1/interviews/:id/responses',
        tag,
        security,
        summary: "An interview's responses",
        description: `The sessions that ended (completed, stopped or handed over), in the order they ended, each with every question asked and its answer (at most ${INTERVIEW_ANSWER_MAX} characters of it; the transcript has all). A page of limit (at most 100, by default 20); pass next as after while has_more is true.`,
        params,
        query: InterviewResponsesQuery,
        responses: { 200: { description: 'A page of responses.', schema: InterviewResponseList } },
        errors: ['not_found'],
      },
      async (ctx, { params, query }) => {
        ctx.body = await pageResponses(sql, ctx.state.caller, params.id, query);
      },
    );
}
