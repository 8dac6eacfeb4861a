import { ParleyError, type ConversationState } from '../shared/index.ts';

/**
 * Every move a conversation can make, and the states it may make it from.
 *
 * | move           | from        | to      |
 * |----------------|-------------|---------|
 * | message        | ai, human   | (stays) |  with the AI it answers; with people it stays silent
 * | action_result  | ai, human   | (stays) |
 * | handover       | ai          | human   |
 * | handback       | human       | ai      |
 * | human_message  | human       | (stays) |
 * | voice_session  | ai, human   | (stays) |
 * | close          | ai, human   | closed  |
 *
 * A closed conversation makes no move: a customer who writes again starts a new conversation.
 */
export const CONVERSATION_MOVES = {
  message: { from: ['ai', 'human'], to: undefined },
  action_result: { from: ['ai', 'human'], to: undefined },
  handover: { from: ['ai'], to: 'human' },
  handback: { from: ['human'], to: 'ai' },
  human_message: { from: ['human'], to: undefined },
  voice_session: { from: ['ai', 'human'], to: undefined },
  close: { from: ['ai', 'human'], to: 'closed' },
} as const satisfies Record<string, { from: readonly ConversationState[]; to: ConversationState | undefined }>;

export type ConversationMove = keyof typeof CONVERSATION_MOVES;

const STATE_WORDS: Record<ConversationState, string> = {
  ai: 'with the AI',
  human: 'with people',
  closed: 'closed',
};

/** The state after `move`, or a 409 `invalid_state` when `state` does not allow it. */
export function nextState(state: ConversationState, move: ConversationMove): ConversationState {
  const rule = CONVERSATION_MOVES[move];
  if (!(rule.from as readonly ConversationState[]).includes(state)) {
    throw new ParleyError(
      'invalid_state',
      `A ${move.replace('_', ' ')} is not allowed while the conversation is ${STATE_WORDS[state]}.`,
      {
        state,
        move,
        allowed_from: rule.from,
      },
    );
  }
  return rule.to ?? state;
}
