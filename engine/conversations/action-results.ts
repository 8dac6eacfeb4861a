/** An action's result, told by the caller (or by the action's URL): recorded, and told to the customer. */
import { ParleyError, type ActionResultRequest } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { findActionRequest, listActions } from '../store/actions.ts';
import type { Caller } from '../store/environment.ts';
import { addLlmUsage } from '../store/llm.ts';
import { settleAction } from './acts.ts';
import type { EarlyBrain } from './early-brain.ts';
import type { Moves } from './moves.ts';

export interface ActionResultsDeps {
  sql: Sql;
  moves: Moves;
  earlyBrain: EarlyBrain;
}

export interface ActionResultAnswer {
  conversation_id: string;
  action_request_id: string;
  status: 'succeeded' | 'failed';
}

export function createActionResults({ sql, moves, earlyBrain }: ActionResultsDeps) {
  return {
    async actionResult(caller: Caller, id: string, request: ActionResultRequest): Promise<ActionResultAnswer> {
      const actions = await listActions(sql, caller);
      // With an LLM the result goes back to the model before the move's transaction; its words are the reply.
      const phrased = await earlyBrain.phraseEarly(caller, id, request, actions);
      const { result } = await moves.withConversation(caller, id, 'action_result', async (move) => {
        if (phrased) await addLlmUsage(move.tx, caller, phrased.usage, move.at);
        const pending = await findActionRequest(move.tx, id, request.action_request_id, true);
        if (!pending) {
          throw new ParleyError('not_found', `No action request ${request.action_request_id} in conversation ${id}.`);
        }
        if (pending.status !== 'pending') {
          throw new ParleyError('invalid_state', `Action request ${pending.id} already has a result.`);
        }
        const action = actions.find((candidate) => candidate.name === pending.action);
        const status = await settleAction(move, pending.id, action, pending.inputs, request.result, phrased?.text);
        return { conversation_id: id, action_request_id: pending.id, status };
      });
      return result;
    },
  };
}
