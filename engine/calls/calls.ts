/**
 * Calls (issue 30): a voice session token, used once, begins a call on its conversation — with a
 * person (the BFF carries the audio between browsers) or with the AI (the engine's voice stream,
 * when speech is configured). A call ends once, by its caller's API key or by its stream closing;
 * its start and end are events of the feed and webhooks, and its end leaves a line in the messages.
 */
import {
  ParleyError,
  type CallEndedBy,
  type CallEndedReason,
  type EndCallResponse,
  type VoiceConnectRequest,
  type VoiceConnectResponse,
} from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { createSignal } from '../../shared/server/index.ts';
import type { z } from 'zod';
import { note } from '../conversations/acts.ts';
import type { Moves } from '../conversations/moves.ts';
import { endCall, findCall, insertCall, openCallStream, type CallRecord } from '../store/calls.ts';
import type { Caller } from '../store/environment.ts';
import { appendEvents } from '../store/events.ts';
import { redeemVoiceSession, voiceTokenHash } from '../store/voice-sessions.ts';
import { callLine } from './call-line.ts';

/** How long after its call began an AI call's stream may be opened. */
const STREAM_OPEN_WINDOW_MS = 2 * 60_000;

type EndedBy = CallEndedBy;

export interface CallsDeps {
  sql: Sql;
  now: () => Date;
  moves: Moves;
  /** Whether the AI can take calls: both a transcription API and a speech API are configured. */
  aiCalls: boolean;
}

/** The engine's own caller for a call's owner, for ends that come from its stream rather than an API key. */
export const ownerCaller = (owner: CallRecord['owner']): Caller => ({
  ...owner,
  keyId: 'engine',
  keyPrefix: 'engine',
  requestsPerMinute: 0,
});

export function createCalls({ sql, now, moves, aiCalls }: CallsDeps) {
  // Told each call that ends, so that its open stream (if any) is closed.
  const ended = createSignal<{ callId: string; endedBy: EndedBy }>();

  /** Uses the voice token once and begins the call, with its call.started event, in one transaction. */
  async function connect(request: z.output<typeof VoiceConnectRequest>): Promise<VoiceConnectResponse> {
    if (request.mode === 'ai' && !aiCalls)
      throw new ParleyError(
        'not_available',
        'Calls with the AI need a transcription API and a speech API (STT_BASE_URL and TTS_BASE_URL); this engine has none.',
      );
    return sql.transaction(async (tx) => {
      const at = now();
      const outcome = await redeemVoiceSession(tx, request.token, at);
      if (outcome === 'used') throw new ParleyError('token_used', 'This voice session token has already been used.');
      if (!outcome) throw new ParleyError('unauthorized', 'The voice session token is not valid or has expired.');
      const [row] = await tx.query<Pick<VoiceConnectResponse, 'customer_ref' | 'state'> & ConversationOwner>(
        'SELECT customer_ref, state, account_id, environment FROM conversations WHERE id = $1',
        [outcome.conversationId],
      );
      const owner = { accountId: row!.account_id, environment: row!.environment };
      const conversationId = outcome.conversationId;
      const stream =
        request.mode === 'ai'
          ? { tokenHash: voiceTokenHash(request.token), expiresAt: new Date(at.getTime() + STREAM_OPEN_WINDOW_MS) }
          : undefined;
      const callId = await insertCall(tx, { owner, conversationId, mode: request.mode, at, stream });
      const data = { call_id: callId, conversation_id: conversationId, mode: request.mode };
      await appendEvents(tx, owner, [{ type: 'call.started', conversationId, data }], at);
      return { conversation_id: conversationId, customer_ref: row!.customer_ref, state: row!.state, call_id: callId };
    });
  }

  /** Ends the caller's call once: call.ended and the line in the messages; a second end is 409 call_ended. */
  async function end(
    caller: Caller,
    callId: string,
    endedBy: EndedBy,
    reason?: CallEndedReason,
  ): Promise<EndCallResponse> {
    const call = await findCall(sql, caller, callId);
    if (!call) throw new ParleyError('not_found', `No call ${callId} for this key.`);
    const { result } = await moves.withConversation(caller, call.conversationId, undefined, async (move) => {
      const done = await endCall(move.tx, callId, endedBy, move.at);
      if (!done) throw new ParleyError('call_ended', `The call ${callId} has already ended.`);
      await note(move, callLine(done.durationS));
      const data: EndCallResponse = {
        call_id: callId,
        conversation_id: call.conversationId,
        duration_s: done.durationS,
        ended_by: endedBy,
        ...(reason ? { reason } : {}),
      };
      move.emit('call.ended', data);
      return data;
    });
    ended.emit({ callId, endedBy });
    return result;
  }

  /** Opens an AI call's stream with the token that began it (once); undefined when it may not be opened. */
  async function openStream(callId: string, token: string): Promise<CallRecord | undefined> {
    return openCallStream(sql, callId, voiceTokenHash(token), now());
  }

  return { connect, end, openStream, onEnded: ended.listen, aiCalls };
}

interface ConversationOwner {
  account_id: string;
  environment: Caller['environment'];
}

export type Calls = ReturnType<typeof createCalls>;
