import { z } from 'zod';
import { VoiceConnectRequest, VoiceConnectResponse } from '../../shared/index.ts';
import type { ApiRoutes } from '../../shared/server/index.ts';
import type { Calls } from '../calls/calls.ts';

/** Routes that take no API key: the OpenAPI document, and the use of a voice token (the token is the credential). */
export function addPublicRoutes(
  routes: ApiRoutes,
  { calls, document }: { calls: Calls; document: () => unknown },
): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/openapi.json',
        tag: 'Account',
        summary: 'This document',
        responses: {
          200: {
            description: 'The OpenAPI 3.1 description of the AI conversation API.',
            schema: z.record(z.string(), z.unknown()),
          },
        },
      },
      (ctx) => {
        ctx.set('Cache-Control', 'public, max-age=300');
        ctx.body = document();
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/voice-sessions/connect',
        tag: 'Voice',
        summary: 'Use a voice session token: a call begins',
        description:
          'The token works once: a second use is refused with 409 token_used. It begins a call (call.started {call_id, conversation_id, mode}) with a person (mode "person", the default) or with the AI (mode "ai", only when the engine has speech configured, else 422 not_available; then open the WebSocket /v1/voice-sessions/stream?call_id=… with the same token, once, within two minutes: binary audio turns in, JSON {type: transcript | answer | answer_end | handover | error | call_ended} and the spoken answer as binary WAV out; closing it ends the call). End it with POST /v1/calls/{call_id}/end.',
        body: VoiceConnectRequest,
        responses: {
          200: { description: 'The conversation the call joins, and the call.', schema: VoiceConnectResponse },
        },
        errors: ['unauthorized', 'token_used', 'not_available'],
      },
      async (ctx, { body }) => {
        ctx.body = await calls.connect(body);
      },
    );
}
