import { z } from 'zod';
import { VoiceConnectRequest, VoiceConnectResponse } from '../../shared/index.ts';
import type { ApiRoutes } from '../../shared/server/index.ts';
import type { ConversationService } from '../conversations/index.ts';

/** Routes that take no API key: the OpenAPI document, and the use of a voice token (the token is the credential). */
export function addPublicRoutes(
  routes: ApiRoutes,
  { conversations, document }: { conversations: ConversationService; document: () => unknown },
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
        summary: 'Use a voice session token',
        description: 'The token works once: a second use is refused with 409 token_used.',
        body: VoiceConnectRequest,
        responses: { 200: { description: 'The conversation the voice session joins.', schema: VoiceConnectResponse } },
        errors: ['unauthorized', 'token_used'],
      },
      async (ctx, { body }) => {
        ctx.body = await conversations.connectVoice(body.token);
      },
    );
}
