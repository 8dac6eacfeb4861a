import { PassThrough } from 'node:stream';
import { z } from 'zod';
import {
  ActionResultRequest,
  ActionResultResponse,
  CloseRequest,
  Conversation,
  ConversationChange,
  ConversationExport,
  ExportQuery,
  HandbackRequest,
  HandoverRequest,
  HumanMessageRequest,
  OpenConversationRequest,
  QualityScore,
  SendMessageRequest,
  SendMessageResponse,
  Transcript,
  VoiceSession,
  ParleyError,
} from '../../shared/index.ts';
import { MESSAGE_BODY_LIMIT, type ApiRoutes, type Logger } from '../../shared/server/index.ts';
import type { EngineState } from '../auth.ts';
import { transcriptText, type ConversationService } from '../conversations/index.ts';

/** Server-sent events of one answer: `delta` pieces while it is written, then `result` (or `error`). */
function streamAnswer(run: (onDelta: (text: string) => void) => Promise<unknown>, logger?: Logger): PassThrough {
  const stream = new PassThrough();
  const send = (event: string, data: unknown) => stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  run((text) => send('delta', { text }))
    .then((result) => send('result', result))
    .catch((error: unknown) => {
      // The status line went out already: a failure is the stream's last event (and, unless the caller's own fault, logged).
      if (!(error instanceof ParleyError) || error.status >= 500)
        logger?.error({ err: error }, 'a streamed answer failed');
      send(
        'error',
        error instanceof ParleyError
          ? error.toBody()
          : {
              error: {
                code: 'internal',
                message: 'The answer failed; send the message again with the same message_id.',
              },
            },
      );
    })
    .finally(() => stream.end());
  return stream;
}

const params = z.strictObject({ id: z.string().max(100).describe('The conversation id (cnv_…)') });
const tag = 'Conversations';
const security = 'apiKey';

/** `/v1/conversations`: open, talk, hand over and back, close, and read the records. */
export function addConversationRoutes(
  routes: ApiRoutes<EngineState>,
  conversations: ConversationService,
  logger?: Logger,
): void {
  addTalkRoutes(routes, conversations, logger);
  addHandlingRoutes(routes, conversations);
  addHumanAndVoiceRoutes(routes, conversations);
  addRecordRoutes(routes, conversations);
}

/** Opening a conversation, the customer's messages, and the results of the actions the caller ran. */
function addTalkRoutes(routes: ApiRoutes<EngineState>, conversations: ConversationService, logger?: Logger): void {
  routes
    .add(
      {
        method: 'post',
        path: '/v1/conversations',
        tag,
        security,
        summary: 'Open a conversation for a customer',
        body: OpenConversationRequest,
        responses: {
          201: { description: 'The new conversation; a conversation.opened event is recorded.', schema: Conversation },
        },
      },
      async (ctx, { body }) => {
        ctx.status = 201;
        ctx.body = await conversations.open(ctx.state.caller, body.customer_ref);
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/conversations/:id/messages',
        tag,
        security,
        summary: "Send the customer's message",
        description:
          'The answer carries the events the message caused (a reply, an action request, a handover or a close). The same message_id again replays the first answer. With Accept: text/event-stream, and an LLM writing the replies, the answer is server-sent events instead: `delta` events ({text}) while an LLM writes the reply, then one `result` event with this same body (or an `error` event with the error body); the feed and webhooks get exactly one conversation.reply either way. The AI reads the first 4,000 characters of a message (all of it is kept). An account whose AI used its thinking time for the minute gets 429 rate_limited with Retry-After, and nothing is kept: send the same message_id again then.',
        params,
        body: SendMessageRequest,
        bodyLimit: MESSAGE_BODY_LIMIT,
        responses: { 200: { description: 'The events the message caused.', schema: SendMessageResponse } },
        errors: ['not_found', 'invalid_state', 'unprocessable'],
      },
      async (ctx, { params, body }) => {
        // Streamed only when it can be (an LLM writes the replies); otherwise the usual JSON, whatever was accepted.
        if (!ctx.get('accept').includes('text/event-stream') || !(await conversations.streams(ctx.state.caller))) {
          ctx.body = await conversations.sendMessage(ctx.state.caller, params.id, body);
          return;
        }
        await conversations.checkCanSend(ctx.state.caller, params.id);
        ctx.body = streamAnswer(
          (onDelta) => conversations.sendMessage(ctx.state.caller, params.id, body, onDelta),
          logger,
        );
        ctx.type = 'text/event-stream';
        ctx.set('Cache-Control', 'no-store');
        ctx.set('X-Accel-Buffering', 'no');
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/conversations/:id/action-results',
        tag,
        security,
        summary: 'Give the result of an action you ran',
        description:
          "On success send the action's data as result; on failure {status: 'failed', error}. The AI's answer to it arrives as events (feed and webhooks), not in this response.",
        params,
        body: ActionResultRequest,
        responses: { 202: { description: 'The result is recorded.', schema: ActionResultResponse } },
        errors: ['not_found', 'invalid_state'],
      },
      async (ctx, { params, body }) => {
        ctx.status = 202;
        ctx.body = await conversations.actionResult(ctx.state.caller, params.id, body);
      },
    );
}

/** Who answers: handing the conversation to people and back, and closing it. */
function addHandlingRoutes(routes: ApiRoutes<EngineState>, conversations: ConversationService): void {
  routes
    .add(
      {
        method: 'post',
        path: '/v1/conversations/:id/handover',
        tag,
        security,
        summary: 'Hand the conversation to people',
        params,
        body: HandoverRequest,
        responses: {
          200: { description: 'The conversation, now with people, and the events.', schema: ConversationChange },
        },
        errors: ['not_found', 'invalid_state'],
      },
      async (ctx, { params, body }) => {
        ctx.body = await conversations.handover(ctx.state.caller, params.id, body.reason);
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/conversations/:id/handback',
        tag,
        security,
        summary: 'Hand the conversation back to the AI',
        params,
        body: HandbackRequest,
        responses: {
          200: { description: 'The conversation, back with the AI, and the events.', schema: ConversationChange },
        },
        errors: ['not_found', 'invalid_state'],
      },
      async (ctx, { params }) => {
        ctx.body = await conversations.handback(ctx.state.caller, params.id);
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/conversations/:id/close',
        tag,
        security,
        summary: 'Close the conversation',
        description:
          'Emits conversation.closed with resolved (the engine judges whether the AI resolved it unless you say), then quality.scored.',
        params,
        body: CloseRequest,
        responses: { 200: { description: 'The closed conversation and the events.', schema: ConversationChange } },
        errors: ['not_found', 'invalid_state'],
      },
      async (ctx, { params, body }) => {
        ctx.body = await conversations.close(ctx.state.caller, params.id, body.resolved);
      },
    );
}

/** A person's answer relayed from the helpdesk, and a voice session. */
function addHumanAndVoiceRoutes(routes: ApiRoutes<EngineState>, conversations: ConversationService): void {
  routes
    .add(
      {
        method: 'post',
        path: '/v1/conversations/:id/human-messages',
        tag,
        security,
        summary: "Relay a person's answer from the helpdesk",
        params,
        body: HumanMessageRequest,
        responses: {
          200: {
            description: 'The conversation and the conversation.human_message event.',
            schema: ConversationChange,
          },
        },
        errors: ['not_found', 'invalid_state'],
      },
      async (ctx, { params, body }) => {
        ctx.body = await conversations.humanMessage(ctx.state.caller, params.id, body.text, {
          name: body.author_name,
          ref: body.author_ref,
        });
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/conversations/:id/voice-sessions',
        tag: 'Voice',
        security,
        summary: 'Create a single-use voice session token',
        params,
        responses: { 201: { description: 'A token that works once, for ten minutes.', schema: VoiceSession } },
        errors: ['not_found', 'invalid_state'],
      },
      async (ctx, { params }) => {
        ctx.status = 201;
        ctx.body = await conversations.voiceSession(ctx.state.caller, params.id);
      },
    );
}

/** The records: transcript, export and quality score. */
function addRecordRoutes(routes: ApiRoutes<EngineState>, conversations: ConversationService): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/conversations/:id/transcript',
        tag: 'Records',
        security,
        summary: 'The transcript: every turn in order',
        params,
        responses: { 200: { description: 'The transcript.', schema: Transcript } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        ctx.body = await conversations.transcript(ctx.state.caller, params.id);
      },
    )
    .add(
      {
        method: 'get',
        path: '/v1/conversations/:id/export',
        tag: 'Records',
        security,
        summary: 'Export the conversation',
        description: 'JSON by default; format=text gives a plain-text rendering.',
        params,
        query: ExportQuery,
        responses: {
          200: {
            description:
              'The conversation with its turns, action requests, events and quality score; as plain text with format=text.',
            schema: ConversationExport,
            alternatives: { 'text/plain': z.string() },
          },
        },
        errors: ['not_found'],
      },
      async (ctx, { params, query }) => {
        const exported = await conversations.export(ctx.state.caller, params.id);
        if (query.format === 'text') {
          ctx.type = 'text/plain; charset=utf-8';
          ctx.body = transcriptText(exported);
        } else {
          ctx.body = exported;
        }
      },
    )
    .add(
      {
        method: 'get',
        path: '/v1/conversations/:id/quality',
        tag: 'Records',
        security,
        summary: 'The quality score of a closed conversation',
        params,
        responses: { 200: { description: 'The score (0–100) and its reasons.', schema: QualityScore } },
        errors: ['not_found', 'invalid_state'],
      },
      async (ctx, { params }) => {
        ctx.body = await conversations.quality(ctx.state.caller, params.id);
      },
    );
}
