/**
 * A person call as the engine knows it (issue 30): when a person answers, the BFF takes the
 * conversation's single-use voice session token and uses it at once (`mode: person`), which makes
 * the engine begin the call and emit `call.started`; when it ends, `POST /v1/calls/{id}/end` makes
 * it emit `call.ended` with the duration and who ended it. The call itself runs browser to browser
 * whatever the engine says: a failure here is logged, and the call goes on.
 */
import type { CallEndReason } from '../../shared/index.ts';
import type { Logger } from '../../shared/server/index.ts';
import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import type { ConversationRecord } from '../store/conversations.ts';
import type { EndedBy } from './call-registry.ts';

export interface CallEngineDeps {
  engines: Pick<EngineAccounts, 'forInbox'>;
  logger: Logger;
}

export function createCallEngine({ engines, logger }: CallEngineDeps) {
  return {
    /** Begins the engine's call; its id, or undefined when the engine did not begin one. */
    async begin(conversation: ConversationRecord): Promise<string | undefined> {
      const engineId = conversation.engineConversationId;
      if (!engineId) {
        logger.warn({ conversation: conversation.uuid }, 'a call on a conversation the engine does not know yet');
        return undefined;
      }
      try {
        const engine = await engines.forInbox(conversation.inboxId, conversation.environment);
        const { token } = await engine.openVoiceSession(engineId);
        return (await engine.connectVoiceSession(token, 'person')).call_id;
      } catch (error) {
        logger.warn({ err: error, conversation: conversation.uuid }, 'the engine did not begin the call');
        return undefined;
      }
    },

    /** Ends the engine's call, if it began one, with the reason the BFF ended it for (too long, a node gone). */
    async end(
      conversation: ConversationRecord,
      callId: string | undefined,
      endedBy: EndedBy,
      reason?: CallEndReason,
    ): Promise<void> {
      if (!callId) return;
      try {
        const engine = await engines.forInbox(conversation.inboxId, conversation.environment);
        await engine.endCall(callId, endedBy, reason);
      } catch (error) {
        logger.warn({ err: error, call: callId }, 'the engine did not end the call');
      }
    },
  };
}

export type CallEngine = ReturnType<typeof createCallEngine>;
