/**
 * The engine's conversations: every route that reads or changes one goes through here. Each part
 * is built from what it needs, in order: the move machinery first, then the early brain, then the
 * operations on top of them.
 */
import type { EngineEvent } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { AccountBrainTime } from '../brain/account-brain-time.ts';
import type { KnowledgeCache } from '../brain/knowledge-cache.ts';
import type { LlmClient } from '../brain/llm-client.ts';
import { createActionResults } from './action-results.ts';
import { createEarlyBrain } from './early-brain.ts';
import { createMoves } from './moves.ts';
import { createOpening } from './opening.ts';
import { createPeopleMoves } from './people-moves.ts';
import { createReads } from './reads.ts';
import { createSending } from './sending.ts';
import { createVoice } from './voice.ts';

export interface ConversationServiceDeps {
  sql: Sql;
  knowledge: KnowledgeCache;
  now: () => Date;
  /** The LLM brain's model (LLM_BASE_URL); without it the retrieval brain answers. */
  llm?: LlmClient | undefined;
  /**
   * Told a message's events once they are committed: the action requests an action's URL runs are
   * called then (engine/actions/live-actions.ts).
   */
  onCommitted?: ((events: readonly EngineEvent[]) => void) | undefined;
  /** Each message's brain time, and each account's a minute (its defaults: engine/brain/account-brain-time.ts). */
  brainTime?: AccountBrainTime | undefined;
}

export function createConversationService(deps: ConversationServiceDeps) {
  const { sql, knowledge, now, llm, onCommitted, brainTime = new AccountBrainTime() } = deps;
  const moves = createMoves({ sql, now });
  const earlyBrain = createEarlyBrain({ sql, llm });
  return {
    ...createOpening({ sql, now }),
    ...createSending({ sql, knowledge, now, llm, onCommitted, brainTime, moves, earlyBrain }),
    ...createActionResults({ sql, moves, earlyBrain }),
    ...createPeopleMoves({ sql, now, moves, knowledge, brainTime, onCommitted }),
    ...createVoice({ sql, now, moves }),
    ...createReads({ sql, moves }),
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
