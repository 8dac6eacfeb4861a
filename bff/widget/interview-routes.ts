import { OpenWidgetInterviewRequest, WidgetConversation } from '../../shared/index.ts';
import type { ApiRoutes } from '../../shared/server/index.ts';
import type { WidgetState } from './session-auth.ts';
import type { WidgetInterviews } from './widget-interviews.ts';

/** `POST /v1/widget/interviews`: the visitor starts the interview their inbox offers (issue 29). */
export function addWidgetInterviewRoutes(routes: ApiRoutes<WidgetState>, interviews: WidgetInterviews): void {
  routes.add(
    {
      method: 'post',
      path: '/v1/widget/interviews',
      tag: 'Widget',
      security: 'sessionToken',
      summary: 'Start the interview the inbox offers',
      description:
        "Opens a conversation in which the AI asks the interview's questions one at a time; its first words (the intro and the first question, with its choices as quick replies) come as messages, as any answer of the AI. 404 not_found when the inbox does not offer this interview; 409 invalid_state while the AI is switched off.",
      body: OpenWidgetInterviewRequest,
      responses: { 201: { description: 'The new conversation.', schema: WidgetConversation } },
      errors: ['not_found', 'invalid_state'],
    },
    async (ctx, { body }) => {
      ctx.status = 201;
      ctx.body = await interviews.start(ctx.state.session, body.interview_id, body.locale);
    },
  );
}
