/** A conversation read, not changed: its transcript, its export, its quality score. */
import { ParleyError, type ConversationExport, type QualityScore, type Transcript } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { listActionRequests } from '../store/actions.ts';
import { listTurns } from '../store/conversations.ts';
import type { Caller } from '../store/environment.ts';
import { eventsOfConversation } from '../store/events.ts';
import type { Moves } from './moves.ts';

export interface ReadsDeps {
  sql: Sql;
  moves: Moves;
}

/** The quality score as stored at the close (its columns are the score's, but for the conversation's id). */
type StoredQuality = Omit<QualityScore, 'conversation_id'>;

export function createReads({ sql, moves }: ReadsDeps) {
  const { conversationOf } = moves;
  return {
    async transcript(caller: Caller, id: string): Promise<Transcript> {
      const { conversation } = await conversationOf(caller, id);
      const turns = await listTurns(sql, id);
      return { conversation_id: id, customer_ref: conversation.customer_ref, state: conversation.state, turns };
    },

    async export(caller: Caller, id: string): Promise<ConversationExport> {
      const record = await conversationOf(caller, id);
      const [turns, requests, events] = await Promise.all([
        listTurns(sql, id),
        listActionRequests(sql, id),
        eventsOfConversation(sql, caller, id),
      ]);
      return {
        conversation: record.conversation,
        turns,
        action_requests: requests.map((request) => ({
          id: request.id,
          action: request.action,
          inputs: request.inputs,
          handled_by: request.handled_by,
          status: request.status,
          created_at: request.created_at.toISOString(),
        })),
        events,
        quality: record.quality ? { conversation_id: id, ...(record.quality as StoredQuality) } : null,
      };
    },

    async quality(caller: Caller, id: string): Promise<QualityScore> {
      const record = await conversationOf(caller, id);
      if (!record.quality) {
        throw new ParleyError('invalid_state', `Conversation ${id} is scored when it closes; it is still open.`);
      }
      return { conversation_id: id, ...(record.quality as StoredQuality) };
    },
  };
}

/** A transcript as plain text, for `export?format=text`. */
export function transcriptText(exported: ConversationExport): string {
  const names = { customer: 'Customer', ai: 'AI', human: 'Agent', system: '—' } as const;
  const { conversation } = exported;
  const closed = conversation.closed_at
    ? `, closed ${conversation.closed_at}${conversation.resolved ? ' (resolved)' : ''}`
    : '';
  const lines = [
    `Conversation ${conversation.id} with ${conversation.customer_ref}`,
    `Opened ${conversation.created_at}${closed}`,
    '',
    ...exported.turns.map((turn) => `[${turn.created_at}] ${names[turn.role]}: ${turn.text}`),
  ];
  if (exported.quality) lines.push('', `Quality: ${exported.quality.score}/100`);
  return `${lines.join('\n')}\n`;
}
