import { CallIdParams, EndCallRequest, EndCallResponse } from '../../shared/index.ts';
import type { ApiRoutes } from '../../shared/server/index.ts';
import type { EngineState } from '../auth.ts';
import type { Calls } from '../calls/calls.ts';

/** `POST /v1/calls/{call_id}/end`: a call begun by a voice session token ends once (issue 30). */
export function addCallRoutes(routes: ApiRoutes<EngineState>, calls: Calls): void {
  routes.add(
    {
      method: 'post',
      path: '/v1/calls/:id/end',
      tag: 'Voice',
      security: 'apiKey',
      summary: 'End a call',
      description:
        'Ends a call begun with POST /v1/voice-sessions/connect: emits call.ended {call_id, conversation_id, duration_s, ended_by, reason (when given: rang_out, too_long or node_gone)} and adds a line ("Call, 3 min 12 s") to the conversation\'s messages. A call ends once: a second end answers 409 call_ended and emits nothing.',
      params: CallIdParams,
      body: EndCallRequest,
      responses: { 200: { description: 'The ended call.', schema: EndCallResponse } },
      errors: ['not_found', 'call_ended'],
    },
    async (ctx, { params, body }) => {
      ctx.body = await calls.end(ctx.state.caller, params.id, body.ended_by, body.reason);
    },
  );
}
