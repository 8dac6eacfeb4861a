/**
 * The moves people make that the AI engine makes first: the conversation opened there when it has
 * not been yet, handed over to people, handed back to the AI; and how engine trouble is told to
 * people's clients.
 */
import { randomUUID } from 'node:crypto';
import { ParleyError, type EngineEvent } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { EngineCallError } from '../engine-link/engine-client.ts';
import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import type { EngineEventRecorder } from '../engine-link/engine-events.ts';
import { givenCustomerRef } from '../widget/customer-refs.ts';
import { attachEngineConversation, type ConversationRecord } from '../store/conversations.ts';

/** Engine trouble, as the people's client is told it: try again later, or the move is not allowed now. */
export function engineFailure(error: unknown): never {
  if (error instanceof EngineCallError) {
    if (error.code === 'invalid_state')
      throw new ParleyError('invalid_state', `The AI engine refused: ${error.message}`);
    if (error.code === 'idempotency_key_in_use')
      throw new ParleyError(
        'conflict',
        'The same change is being made by another request just now; read the conversation again.',
      );
    if (error.retryable)
      throw new ParleyError(
        'upstream_unavailable',
        'The AI engine cannot be reached just now; nothing was changed. Try again.',
      );
  }
  throw error;
}

/** A move the engine says is made already (by another request, or the engine itself): nothing left to do. */
export function unlessMadeAlready(error: unknown): undefined {
  if (error instanceof EngineCallError && error.code === 'invalid_state') return undefined;
  return engineFailure(error);
}

export interface DeskEngineMovesDeps {
  sql: Sql;
  engines: Pick<EngineAccounts, 'forInbox'>;
  recorder: EngineEventRecorder;
}

export function createDeskEngineMoves({ sql, engines, recorder }: DeskEngineMovesDeps) {
  // Each conversation goes to the engine with the key of its account's engine account and its own environment.
  const engineOf = (record: ConversationRecord) => engines.forInbox(record.inboxId, record.environment);

  /** The engine's conversation for this one, opened there first when it has none yet. */
  async function engineConversation(record: ConversationRecord): Promise<string> {
    if (record.engineConversationId) return record.engineConversationId;
    const opened = await (
      await engineOf(record)
    )
      .openConversation(givenCustomerRef(record.customerRef), `open-${record.uuid}`)
      .catch(engineFailure);
    return (record.engineConversationId = await attachEngineConversation(sql, record.id, opened.id));
  }

  const recordEvents = async (conversation: ConversationRecord, events: readonly EngineEvent[]) =>
    recorder.record(conversation, events);

  /** People take the conversation from the AI (the AI goes quiet). */
  async function handOver(conversation: ConversationRecord, reason: string, key: string): Promise<void> {
    const change = await (
      await engineOf(conversation)
    )
      .handover(await engineConversation(conversation), reason, `handover-${conversation.uuid}-${key}`)
      .catch(unlessMadeAlready);
    if (change) await recordEvents(conversation, change.events);
  }

  async function handBack(conversation: ConversationRecord): Promise<void> {
    const change = await (
      await engineOf(conversation)
    )
      .handback(await engineConversation(conversation), `handback-${conversation.uuid}-${randomUUID()}`)
      .catch(engineFailure);
    await recordEvents(conversation, change.events);
  }

  return { engineOf, engineConversation, recordEvents, handOver, handBack };
}

export type DeskEngineMoves = ReturnType<typeof createDeskEngineMoves>;
