/**
 * Calls with the AI from the widget (issue 30). When the conversation is with the AI and the
 * inbox takes calls, `call:start` asks the engine for the conversation's voice session token and
 * uses it with `mode: ai`. An engine without speech (no STT_BASE_URL or TTS_BASE_URL; its `GET /v1/me`
 * says so, ai-call-speech.ts) is not asked, and the people are rung as for any call: with speech, the
 * AI takes the call even when nobody is available or outside working hours. The widget then opens the BFF's stream
 * (`AI_CALL_STREAM_PATH`, ai-call-relay.ts), which this node relays to the engine's voice stream.
 *
 * A call lives on the node that began it, in memory: both WebSockets of its relay end here. Its
 * conversation's row in the store (ai-call-claims.ts) keeps one call per conversation across nodes;
 * a call the widget does not join within JOIN_MS ends, and so does one a person took over after a
 * handover (`personAnswered`, told by whichever node the person accepted on).
 */
import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { ParleyError, type CallJoined } from '../../shared/index.ts';
import { EngineCallError } from '../engine-link/engine-client.ts';
import type { ConversationRecord } from '../store/conversations.ts';
import type { Session } from '../widget/sessions.ts';
import { keepRenewing } from './ai-call-claims.ts';
import type { AiCall, AiCallsDeps } from './ai-call-record.ts';
import type { EndedBy } from './call-registry.ts';
import { writeCallLine } from './call-transcript.ts';
import { readCallsEnabled } from './calls-setting.ts';
import { createAiCallRelay } from './ai-call-relay.ts';
import { engineSpeaks } from './ai-call-speech.ts';

/** How long the widget has to open the call's stream after `call:start`. */
export const JOIN_MS = 30_000;

/** Begins the engine's AI call; undefined when this engine has no speech, or does not answer (people are rung then). */
async function beginAtEngine(
  { engines, logger, now }: Pick<AiCallsDeps, 'engines' | 'logger' | 'now'>,
  conversation: ConversationRecord,
  engineConversationId: string,
) {
  try {
    const engine = await engines.forInbox(conversation.inboxId, conversation.environment);
    if (!(await engineSpeaks(engine, now()))) return undefined;
    const { token } = await engine.openVoiceSession(engineConversationId);
    const { call_id } = await engine.connectVoiceSession(token, 'ai');
    return { engine, token, engineCallId: call_id };
  } catch (error) {
    if (!(error instanceof EngineCallError && error.code === 'not_available'))
      logger.warn({ err: error, conversation: conversation.uuid }, 'the engine did not begin an AI call');
    return undefined;
  }
}

/** Lets an ended (or never begun) call's conversation go, for a next call on any node. */
const letGo = ({ claims, logger }: Pick<AiCallsDeps, 'claims' | 'logger'>, callId: string) =>
  claims
    .release(callId)
    .catch((error: unknown) => logger.error({ err: error, call: callId }, 'an AI call kept its row'));

export function createAiCalls(deps: AiCallsDeps) {
  const { sql, now, logger, claims } = deps;
  const calls = new Map<string, AiCall>();

  /** Ends the call once: the relay's sockets close (the engine ends its call) and the transcript gets its line. */
  function end(call: AiCall, endedBy: EndedBy): void {
    if (calls.get(call.id) !== call) return;
    calls.delete(call.id);
    void letGo(deps, call.id);
    clearTimeout(call.joinBy);
    if (call.hangUp) call.hangUp(endedBy);
    else
      call.engine.endCall(call.engineCallId, endedBy).catch((error: unknown) => {
        if (!(error instanceof EngineCallError && error.code === 'call_ended'))
          logger.warn({ err: error, call: call.id }, 'the engine did not end an AI call');
      });
    const durationS = Math.round((now().getTime() - call.startedAt) / 1000);
    writeCallLine(deps, call, durationS).catch((error: unknown) =>
      logger.error({ err: error, call: call.id }, 'an ended AI call was not written down'),
    );
  }

  /**
   * The AI takes the call when the conversation is with it, the inbox takes calls and the engine
   * speaks; undefined otherwise (the caller rings people). 409 `conflict` while a call is under way.
   */
  async function start(
    customerSocket: string,
    session: Session,
    conversation: ConversationRecord,
  ): Promise<CallJoined | undefined> {
    const engineConversationId = conversation.engineConversationId;
    if (conversation.handledBy !== 'ai' || !engineConversationId) return undefined;
    if (!(await readCallsEnabled(sql, conversation.inboxId))) return undefined;
    const id = `aicall_${randomUUID()}`;
    if (!(await claims.claim(conversation.id, id, now())))
      throw new ParleyError('conflict', 'A call on this conversation is under way already.');
    const begun = await beginAtEngine(deps, conversation, engineConversationId);
    if (!begun) {
      await letGo(deps, id);
      return undefined;
    }
    const call: AiCall = {
      id,
      conversation,
      customer: { inboxId: session.inboxId, customerRef: session.customerRef, name: session.name },
      customerSocket,
      ...begun,
      startedAt: now().getTime(),
      joinBy: undefined,
      handoverCallId: undefined,
      hangUp: undefined,
    };
    calls.set(call.id, call);
    call.joinBy = setTimeout(() => end(call, 'network'), JOIN_MS);
    return { call_id: call.id, ice_servers: deps.iceServers, with: 'ai' };
  }

  const relay = createAiCallRelay({ ...deps, calls, end });
  const stopRenewing = keepRenewing(claims, deps, deps.leaseMs);
  return {
    start,
    /** A person accepted `personCallId`: the call with the AI it was handed on from, if it is this node's, ends. */
    personAnswered(personCallId: string): void {
      for (const call of calls.values()) if (call.handoverCallId === personCallId) end(call, 'person');
    },
    /** Serves the calls' stream on `server`'s upgrades at AI_CALL_STREAM_PATH. */
    attach: (server: EventEmitter) => relay.attach(server),
    /** Ends this node's calls (their sockets close) and stops serving the stream. */
    async close(): Promise<void> {
      stopRenewing();
      for (const call of [...calls.values()]) end(call, 'network');
      await relay.close();
    },
  };
}

export type AiCalls = ReturnType<typeof createAiCalls>;
