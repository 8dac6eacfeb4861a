/** A new conversation, with the AI unless the AI is switched off. */
import type { Conversation } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { FRESH_MEMORY } from '../brain/brain.ts';
import { KILL_SWITCH_REASON, readAgent } from '../store/agent.ts';
import { insertConversation } from '../store/conversations.ts';
import type { Caller } from '../store/environment.ts';
import { appendEvents } from '../store/events.ts';
import { handOver } from './acts.ts';
import { newMove } from './moves.ts';

export interface OpeningDeps {
  sql: Sql;
  now: () => Date;
}

export function createOpening({ sql, now }: OpeningDeps) {
  return {
    /** Opens a conversation with the AI for `customerRef`; emits `conversation.opened`. */
    async open(caller: Caller, customerRef: string): Promise<Conversation> {
      return sql.transaction(async (tx) => {
        const at = now();
        const conversation = await insertConversation(tx, caller, customerRef, at);
        const record = { conversation, memory: FRESH_MEMORY, handoverCount: 0, quality: null, locale: null };
        const move = newMove(tx, caller, record, at);
        move.emit('conversation.opened', { customer_ref: customerRef });
        // While the AI is switched off, a new conversation goes to people at once.
        if ((await readAgent(tx, caller)).killSwitch) await handOver(move, KILL_SWITCH_REASON, 'ai');
        await appendEvents(tx, caller, move.drafts, at);
        return move.record.conversation;
      });
    },
  };
}
