import {
  ParleyError,
  type Conversation,
  type ConversationChange,
  type EngineEvent,
  type EventData,
  type EventType,
} from '../../shared/index.ts';
import type { Queryable, Sql } from '../../shared/server/index.ts';
import { nextState, type ConversationMove } from '../conversation-states.ts';
import { findConversation, type ConversationRecord } from '../store/conversations.ts';
import type { Caller } from '../store/environment.ts';
import { appendEvents, type EventDraft } from '../store/events.ts';

/** One open transaction on one locked conversation: what a move may read and write. */
export interface Move {
  tx: Queryable;
  caller: Caller;
  record: ConversationRecord;
  at: Date;
  causedBy: string | undefined;
  /** Events of this move, appended to the feed as the transaction's last write. */
  drafts: EventDraft[];
  emit<T extends EventType>(type: T, data: EventData<T>): void;
}

/** A move on a conversation (locked by the caller) in the transaction `tx`; its events are appended by the caller. */
export function newMove(tx: Queryable, caller: Caller, record: ConversationRecord, at: Date): Move {
  const context: Move = {
    tx,
    caller,
    record,
    at,
    causedBy: undefined,
    drafts: [],
    emit(type, data) {
      // A draft of type T carries EventData<T>; TypeScript cannot follow a generic into the union.
      const draft = { type, conversationId: record.conversation.id, data, causedBy: context.causedBy };
      context.drafts.push(draft as EventDraft);
    },
  };
  return context;
}

export interface MovesDeps {
  sql: Sql;
  now: () => Date;
}

/** How a move is run: the conversation locked, its events collected and appended before the commit. */
export function createMoves({ sql, now }: MovesDeps) {
  /** Runs `work` on the caller's conversation, locked, after checking that `move` is allowed. */
  async function withConversation<T>(
    caller: Caller,
    id: string,
    move: ConversationMove | undefined,
    work: (move: Move) => Promise<T>,
  ): Promise<{ result: T; events: EngineEvent[] }> {
    return sql.transaction(async (tx) => {
      const record = await findConversation(tx, caller, id, true);
      if (!record) throw new ParleyError('not_found', `No conversation ${id} for this key.`);
      if (move) nextState(record.conversation.state, move);
      const context = newMove(tx, caller, record, now());
      const result = await work(context);
      // Last, so the feed's lock is held only for the insert and the commit.
      const events = await appendEvents(tx, caller, context.drafts, context.at);
      return { result, events };
    });
  }

  /** The answer of a move: the conversation after it and the events it made. */
  async function changeOf(
    caller: Caller,
    id: string,
    move: ConversationMove,
    work: (move: Move) => Promise<void>,
  ): Promise<ConversationChange> {
    let conversation: Conversation | undefined;
    const { events } = await withConversation(caller, id, move, async (context) => {
      await work(context);
      conversation = context.record.conversation;
    });
    return { conversation: conversation!, events };
  }

  /** The caller's conversation as stored, outside any move (404 when it is not the caller's). */
  async function conversationOf(caller: Caller, id: string): Promise<ConversationRecord> {
    const record = await findConversation(sql, caller, id);
    if (!record) throw new ParleyError('not_found', `No conversation ${id} for this key.`);
    return record;
  }

  return { withConversation, changeOf, conversationOf };
}

export type Moves = ReturnType<typeof createMoves>;
