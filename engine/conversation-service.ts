import {
  newId,
  ParleyError,
  type ActionResultRequest,
  type Conversation,
  type ConversationChange,
  type ConversationExport,
  type EngineEvent,
  type EventData,
  type EventType,
  type QualityScore,
  type ReplyCard,
  type ReplyChoice,
  type SendMessageRequest,
  type SendMessageResponse,
  type Transcript,
} from '../shared/index.ts';
import type { Queryable, Sql } from '../shared/server/index.ts';
import { cardOf, describeResult, isFailure, type ActionDefinition, type ActionInputs } from './brain/actions.ts';
import { decide, FRESH_MEMORY, type BrainMemory, type Decision } from './brain/brain.ts';
import { AccountBrainTime } from './brain/account-brain-time.ts';
import type { Think } from './brain/bounds.ts';
import type { KnowledgeBase } from './brain/knowledge-base.ts';
import { decideWithLlm, phraseResult } from './brain/llm-brain.ts';
import type { LlmClient } from './brain/llm-client.ts';
import { addLlmUsage, recentTurns } from './store/llm.ts';
import { greetingFor, saysHandoverKeyword } from './brain/agent-profile.ts';
import { applyHandoverRules } from './brain/handover-rules.ts';
import { aiHasSpoken, KILL_SWITCH_REASON, readAgent, type AgentRecord } from './store/agent.ts';
import type { KnowledgeCache } from './brain/knowledge-cache.ts';
import { maskCodes } from './brain/masking.ts';
import { scoreQuality } from './brain/quality.ts';
import { nextState, type ConversationMove } from './conversation-states.ts';
import {
  completeActionRequest,
  findActionRequest,
  findActionTarget,
  findSandboxFixture,
  insertActionRequest,
  listActionRequests,
  listActions,
} from './store/actions.ts';
import {
  findConversation,
  findTurnByMessageId,
  insertConversation,
  insertTurn,
  listTurns,
  turnCounts,
  updateConversation,
  recordAnswerFeedback,
  type ConversationRecord,
} from './store/conversations.ts';
import type { Caller } from './store/environment.ts';
import { appendEvents, eventsCausedBy, eventsOfConversation, type EventDraft } from './store/events.ts';
import { createVoiceSession, redeemVoiceSession } from './store/voice-sessions.ts';

export interface ConversationServiceDeps {
  sql: Sql;
  knowledge: KnowledgeCache;
  now: () => Date;
  /** The LLM brain's model (LLM_BASE_URL); without it the retrieval brain answers. */
  llm?: LlmClient | undefined;
  /** Told a message's events once they are committed: the action requests an action's URL runs are called then (engine/actions/live-actions.ts). */
  onCommitted?: ((events: readonly EngineEvent[]) => void) | undefined;
  /** Each message's brain time, and each account's a minute (its defaults: engine/brain/account-brain-time.ts). */
  brainTime?: AccountBrainTime | undefined;
}

const VOICE_TOKEN_TTL_MS = 10 * 60_000;

/** One open transaction on one locked conversation: what a move may read and write. */
interface Move {
  tx: Queryable;
  caller: Caller;
  record: ConversationRecord;
  at: Date;
  causedBy: string | undefined;
  /** Events of this move, appended to the feed as the transaction's last write. */
  drafts: EventDraft[];
  emit<T extends EventType>(type: T, data: EventData<T>): void;
}

/** The engine's conversations: every route that reads or changes one goes through here. */
export function createConversationService({ sql, knowledge, now, llm, onCommitted, brainTime = new AccountBrainTime() }: ConversationServiceDeps) {
  /** The model's words for a caller's action result (undefined: the action's reply template). */
  async function phraseEarly(caller: Caller, id: string, request: ActionResultRequest, actions: ActionDefinition[]) {
    if (!llm) return undefined;
    const agent = await readAgent(sql, caller);
    if (agent.chosenBrain === 'retrieval' || agent.killSwitch) return undefined;
    const record = await findConversation(sql, caller, id);
    if (!record || record.conversation.state !== 'ai') return undefined;
    const pending = await findActionRequest(sql, id, request.action_request_id);
    const action = pending?.status === 'pending' ? actions.find((candidate) => candidate.name === pending.action) : undefined;
    if (!action || !pending) return undefined;
    const history = await recentTurns(sql, id, 8);
    return phraseResult(llm, { action, inputs: pending.inputs, result: request.result, history, locale: record.locale ?? undefined, agent: agent.profile });
  }

  /**
   * The LLM brain's decision, made before the move's transaction (a model may take seconds, and
   * the conversation's lock is not held meanwhile). Undefined when the retrieval brain decides:
   * no model, the agent chose retrieval, the AI does not have the conversation, the message was
   * seen before, or it goes to people anyway (the kill switch, a handover keyword).
   */
  async function decideEarly(caller: Caller, id: string, text: string, request: SendMessageRequest, kb: KnowledgeBase, actions: ActionDefinition[], think: Think, onDelta?: (text: string) => void) {
    if (!llm) return undefined;
    const record = await findConversation(sql, caller, id);
    if (!record || record.conversation.state !== 'ai') return undefined;
    if (request.message_id && (await findTurnByMessageId(sql, id, request.message_id))) return undefined;
    const agent = await readAgent(sql, caller);
    if (agent.chosenBrain === 'retrieval' || agent.killSwitch || saysHandoverKeyword(text, agent.profile.handover.keywords)) return undefined;
    const history = await recentTurns(sql, id, 8);
    const locale = request.locale ?? record.locale ?? undefined;
    const early = await decideWithLlm(llm, { text, memory: record.memory, knowledge: kb, actions, locale, history, agent: agent.profile, think }, onDelta);
    // A sandbox fixture answers the tool call at once: its result goes back to the model, which tells the customer.
    const fixture = early.decision.kind === 'action' && caller.environment === 'sandbox' ? await findSandboxFixture(sql, caller.accountId, early.decision.action.name) : undefined;
    if (early.decision.kind === 'action' && fixture) {
      const phrased = await phraseResult(llm, { action: early.decision.action, inputs: early.decision.inputs, result: fixture, history: [...history, { role: 'customer', text }], locale, agent: agent.profile });
      if (phrased) {
        early.decision.phrased = phrased.text;
        early.usage.promptTokens += phrased.usage.promptTokens;
        early.usage.completionTokens += phrased.usage.completionTokens;
      }
    }
    return { ...early, memory: record.memory };
  }

  /** A move on a conversation (locked by the caller) in the transaction `tx`; its events are appended by the caller. */
  function newMove(tx: Queryable, caller: Caller, record: ConversationRecord, at: Date): Move {
    const context: Move = {
      tx,
      caller,
      record,
      at,
      causedBy: undefined,
      drafts: [],
      emit(type, data) {
        // A draft of type T carries EventData<T>; TypeScript cannot follow a generic into the union.
        context.drafts.push({ type, conversationId: record.conversation.id, data, causedBy: context.causedBy } as EventDraft);
      },
    };
    return context;
  }

  /** Runs `work` on the caller's conversation, locked, after checking that `move` is allowed. */
  async function withConversation<T>(caller: Caller, id: string, move: ConversationMove | undefined, work: (move: Move) => Promise<T>): Promise<{ result: T; events: EngineEvent[] }> {
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

  async function say(move: Move, text: string, answered?: boolean, extra: { choices?: ReplyChoice[] | undefined; card?: ReplyCard | undefined } = {}): Promise<void> {
    await insertTurn(move.tx, move.record.conversation.id, { role: 'ai', text, answered }, move.at);
    move.emit('conversation.reply', {
      type: 'reply',
      reply_id: newId('reply'),
      format: 'chat',
      text,
      ...(extra.choices?.length ? { choices: extra.choices } : {}),
      ...(extra.card ? { card: extra.card } : {}),
    });
  }

  /** The agent's greeting, in the customer's language, before the AI's first words in a conversation. */
  async function greet(move: Move, agent: AgentRecord): Promise<void> {
    const greeting = greetingFor(agent.profile, move.record.locale ?? undefined);
    if (greeting && !(await aiHasSpoken(move.tx, move.record.conversation.id))) await say(move, greeting);
  }

  async function note(move: Move, text: string): Promise<void> {
    await insertTurn(move.tx, move.record.conversation.id, { role: 'system', text }, move.at);
  }

  async function setMemory(move: Move, memory: BrainMemory): Promise<void> {
    await updateConversation(move.tx, move.record.conversation.id, { memory }, move.at);
    move.record.memory = memory;
  }

  async function handOver(move: Move, reason: string, requestedBy: 'ai' | 'caller'): Promise<void> {
    const handoverCount = move.record.handoverCount + 1;
    await updateConversation(move.tx, move.record.conversation.id, { state: nextState(move.record.conversation.state, 'handover'), handoverCount, memory: FRESH_MEMORY }, move.at);
    move.record.conversation.state = 'human';
    move.record.handoverCount = handoverCount;
    await note(move, 'The conversation was handed to people.');
    move.emit('conversation.handover', { type: 'handover', reason, requested_by: requestedBy });
  }

  async function close(move: Move, resolved: boolean, closedBy: 'ai' | 'caller'): Promise<void> {
    const id = move.record.conversation.id;
    nextState(move.record.conversation.state, 'close');
    // One after another: a transaction is one connection, which runs one query at a time.
    const counts = await turnCounts(move.tx, id);
    const requests = await listActionRequests(move.tx, id);
    const stored = await eventsOfConversation(move.tx, move.caller, id);
    const handovers = [...stored, ...move.drafts].flatMap((event) => (event.type === 'conversation.handover' ? [event.data] : []));
    const noAnswer = handovers.filter((handover) => handover.reason === 'no_answer').length;
    const { score, reasons } = scoreQuality({
      resolved,
      customerMessages: counts.customer,
      answeredReplies: counts.answered,
      unansweredReplies: counts.unanswered,
      handoversForNoAnswer: noAnswer,
      otherHandovers: handovers.length - noAnswer,
      failedActions: requests.filter((request) => request.status === 'failed').length,
      succeededActions: requests.filter((request) => request.status === 'succeeded').length,
    });
    const quality = { score, reasons, scored_at: move.at.toISOString() };
    await updateConversation(move.tx, id, { state: 'closed', closed: { resolved, quality } }, move.at);
    Object.assign(move.record.conversation, { state: 'closed', resolved, closed_at: move.at.toISOString() });
    await note(move, resolved ? 'The conversation was closed, resolved.' : 'The conversation was closed.');
    move.emit('conversation.closed', { type: 'close', resolved, closed_by: closedBy });
    move.emit('quality.scored', { score, reasons });
  }

  /** Records an action's result and, while the AI has the conversation, tells the customer about it. */
  async function settleAction(move: Move, requestId: string, action: ActionDefinition | undefined, inputs: ActionInputs, result: Record<string, unknown>, phrased?: string): Promise<'succeeded' | 'failed'> {
    const status = isFailure(result) ? 'failed' : 'succeeded';
    await completeActionRequest(move.tx, requestId, status, result, move.at);
    await note(move, `The action ${action?.name ?? 'requested'} ${status}.`);
    if (move.record.conversation.state === 'ai' && action) {
      await say(move, phrased ?? describeResult(action, inputs, result), status === 'succeeded', { card: cardOf(action, inputs, result) });
      await setMemory(move, { ...FRESH_MEMORY, lastReplyAnswered: status === 'succeeded' });
    }
    return status;
  }

  async function carryOut(move: Move, decision: Decision): Promise<void> {
    const memory = move.record.memory;
    switch (decision.kind) {
      case 'reply': {
        await say(move, decision.text, decision.neutral ? undefined : decision.answered, { choices: decision.choices });
        if (decision.feedback) await recordAnswerFeedback(move.tx, move.caller, move.record.conversation.id, decision.feedback, move.at);
        const next: BrainMemory = decision.neutral
          ? { ...memory, awaitingAction: null, lastAnswer: null }
          : { unansweredStreak: decision.answered ? 0 : memory.unansweredStreak + 1, lastReplyAnswered: decision.answered, awaitingAction: null, lastAnswer: decision.source ?? null };
        await setMemory(move, next);
        return;
      }
      case 'ask':
        await say(move, decision.text);
        await setMemory(move, { ...memory, awaitingAction: { action: decision.action, inputs: decision.inputs }, lastAnswer: null });
        return;
      case 'action': {
        const { action, inputs } = decision;
        const fixture = move.caller.environment === 'sandbox' ? await findSandboxFixture(move.tx, move.caller.accountId, action.name) : undefined;
        // A live customer's request for an action with a URL is posted there after the commit; in the sandbox only a fixture runs one.
        const byUrl = move.caller.environment === 'live' && (await findActionTarget(move.tx, move.caller.accountId, action.name)) !== undefined;
        const handledBy = fixture ? 'sandbox' : byUrl ? 'url' : null;
        const requestId = await insertActionRequest(move.tx, move.record.conversation.id, action.name, inputs, handledBy, move.at);
        await note(move, `The AI asked for the action ${action.name}.`);
        move.emit('conversation.action_request', { type: 'action_request', action_request_id: requestId, action: action.name, inputs, ...(handledBy ? { handled_by: handledBy } : {}) });
        await setMemory(move, { ...memory, awaitingAction: null, lastReplyAnswered: false, lastAnswer: null });
        if (fixture) await settleAction(move, requestId, action, inputs, fixture, decision.phrased);
        return;
      }
      case 'handover':
        await say(move, decision.text);
        await handOver(move, decision.reason, 'ai');
        return;
      case 'close':
        await say(move, decision.text);
        await close(move, true, 'ai');
        return;
    }
  }

  /** The answer of a move: the conversation after it and the events it made. */
  async function changeOf(caller: Caller, id: string, move: ConversationMove, work: (move: Move) => Promise<void>): Promise<ConversationChange> {
    let conversation: Conversation | undefined;
    const { events } = await withConversation(caller, id, move, async (context) => {
      await work(context);
      conversation = context.record.conversation;
    });
    return { conversation: conversation!, events };
  }

  async function conversationOf(caller: Caller, id: string): Promise<ConversationRecord> {
    const record = await findConversation(sql, caller, id);
    if (!record) throw new ParleyError('not_found', `No conversation ${id} for this key.`);
    return record;
  }

  return {
    /** Opens a conversation with the AI for `customerRef`; emits `conversation.opened`. */
    async open(caller: Caller, customerRef: string): Promise<Conversation> {
      return sql.transaction(async (tx) => {
        const at = now();
        const conversation = await insertConversation(tx, caller, customerRef, at);
        const move = newMove(tx, caller, { conversation, memory: FRESH_MEMORY, handoverCount: 0, quality: null, locale: null }, at);
        move.emit('conversation.opened', { customer_ref: customerRef });
        // While the AI is switched off, a new conversation goes to people at once.
        if ((await readAgent(tx, caller)).killSwitch) await handOver(move, KILL_SWITCH_REASON, 'ai');
        await appendEvents(tx, caller, move.drafts, at);
        return move.record.conversation;
      });
    },

    /**
     * Hands every conversation the AI has in the caller's environment to people, a hundred per
     * transaction (the kill switch). A conversation being answered is waited for, then handed
     * over; one that moved on meanwhile is left. Gives how many were handed over.
     */
    async handOverAll(caller: Caller, reason: string): Promise<number> {
      const BATCH = 100;
      let total = 0;
      for (;;) {
        const count = await sql.transaction(async (tx) => {
          const ids = await tx.query<{ id: string }>(
            "SELECT id FROM conversations WHERE account_id = $1 AND environment = $2 AND state = 'ai' ORDER BY id LIMIT $3 FOR UPDATE",
            [caller.accountId, caller.environment, BATCH],
          );
          const at = now();
          const drafts: EventDraft[] = [];
          for (const { id } of ids) {
            const record = await findConversation(tx, caller, id, true);
            if (record?.conversation.state !== 'ai') continue;
            const move = newMove(tx, caller, record, at);
            await handOver(move, reason, 'ai');
            drafts.push(...move.drafts);
          }
          await appendEvents(tx, caller, drafts, at);
          return ids.length;
        });
        total += count;
        if (count < BATCH) return total;
      }
    },

    /**
     * Takes what the customer said and gives the events it caused. A `message_id` already seen in
     * this conversation replays the first answer's events instead of adding anything.
     */
    /** Whether the account's replies are written by an LLM, which can stream them (the retrieval brain's come whole). */
    async streams(caller: Caller): Promise<boolean> {
      if (!llm) return false;
      const agent = await readAgent(sql, caller);
      return agent.chosenBrain !== 'retrieval' && !agent.killSwitch;
    },

    /** Refuses now (404, 409, 429) what sendMessage would refuse, so that a streamed answer starts only for a message that can be taken. */
    async checkCanSend(caller: Caller, id: string): Promise<void> {
      brainTime.refuseWhenSpent(caller.accountId);
      nextState((await conversationOf(caller, id)).conversation.state, 'message');
    },

    /**
     * `onDelta` gets the reply's text as an LLM writes it (nothing with the retrieval brain, whose
     * reply comes whole); the events, and what is kept, are the same either way. An account that
     * spent its brain time for the minute is refused (429) before anything is kept.
     */
    async sendMessage(caller: Caller, id: string, request: SendMessageRequest, onDelta?: (text: string) => void): Promise<SendMessageResponse> {
      const think = brainTime.forMessage(caller.accountId);
      // The customer's turn is kept at its arrival, so the first answer's time in reports includes a model's wait.
      const receivedAt = now();
      // Retrieval and the action list are read before the transaction, so the lock is held only for writes.
      const [kb, actions] = await Promise.all([knowledge.forAccount(sql, caller.accountId), listActions(sql, caller.accountId)]);
      // Masking reads the whole message (all of it is kept): its time is the account's too.
      const text = think(() => maskCodes(request.text));
      const early = await decideEarly(caller, id, text, request, kb, actions, think, onDelta);
      const { result: replayed, events } = await withConversation(caller, id, undefined, async (move) => {
        if (request.message_id) {
          const earlier = await findTurnByMessageId(move.tx, id, request.message_id);
          if (earlier) return eventsCausedBy(move.tx, earlier);
        }
        nextState(move.record.conversation.state, 'message');
        move.causedBy = await insertTurn(move.tx, id, { role: 'customer', text, messageId: request.message_id }, receivedAt);
        // The customer's language, when the caller says it, is kept for the AI's own words from now on.
        if (request.locale && request.locale !== move.record.locale) {
          await updateConversation(move.tx, id, { locale: request.locale }, move.at);
          move.record.locale = request.locale;
        }
        // With people, the AI stays silent until a handback.
        if (early && early.usage.promptTokens + early.usage.completionTokens > 0) await addLlmUsage(move.tx, caller, early.usage, move.at);
        if (move.record.conversation.state === 'ai') {
          // Asked inside the move (the conversation locked): the kill switch counts from the moment it is on.
          const agent = await readAgent(move.tx, caller);
          if (agent.killSwitch) {
            await handOver(move, KILL_SWITCH_REASON, 'ai');
          } else {
            // The early decision stands unless the conversation moved on meanwhile; then the retrieval brain decides on what is there now.
            const current = early && JSON.stringify(early.memory) === JSON.stringify(move.record.memory) ? early.decision : undefined;
            const decision =
              current ??
              think((budget) => decide(text, move.record.memory, { knowledge: kb, actions, locale: move.record.locale ?? undefined, agent: agent.profile, budget }));
            await greet(move, agent);
            await carryOut(move, applyHandoverRules(decision, text, move.record.memory, agent.profile));
          }
        }
        return undefined;
      });
      if (!replayed) onCommitted?.(events);
      return { conversation_id: id, message_id: request.message_id ?? null, events: replayed ?? events };
    },

    async actionResult(caller: Caller, id: string, request: ActionResultRequest): Promise<{ conversation_id: string; action_request_id: string; status: 'succeeded' | 'failed' }> {
      const actions = await listActions(sql, caller.accountId);
      // With an LLM the result goes back to the model before the move's transaction; its words are the reply.
      const phrased = await phraseEarly(caller, id, request, actions);
      const { result } = await withConversation(caller, id, 'action_result', async (move) => {
        if (phrased) await addLlmUsage(move.tx, caller, phrased.usage, move.at);
        const pending = await findActionRequest(move.tx, id, request.action_request_id, true);
        if (!pending) throw new ParleyError('not_found', `No action request ${request.action_request_id} in conversation ${id}.`);
        if (pending.status !== 'pending') throw new ParleyError('invalid_state', `Action request ${pending.id} already has a result.`);
        const action = actions.find((candidate) => candidate.name === pending.action);
        const status = await settleAction(move, pending.id, action, pending.inputs, request.result, phrased?.text);
        return { conversation_id: id, action_request_id: pending.id, status };
      });
      return result;
    },

    handover: (caller: Caller, id: string, reason: string | undefined) =>
      changeOf(caller, id, 'handover', (move) => handOver(move, reason ?? 'requested', 'caller')),

    handback: (caller: Caller, id: string) =>
      changeOf(caller, id, 'handback', async (move) => {
        if ((await readAgent(move.tx, caller)).killSwitch) {
          throw new ParleyError('invalid_state', 'The AI is switched off (the kill switch is on): people keep the conversation until it is switched on again.');
        }
        await updateConversation(move.tx, id, { state: nextState(move.record.conversation.state, 'handback'), memory: FRESH_MEMORY }, move.at);
        move.record.conversation.state = 'ai';
        await note(move, 'The conversation was handed back to the AI.');
        move.emit('conversation.handback', { type: 'handback' });
      }),

    close: (caller: Caller, id: string, resolved: boolean | undefined) =>
      changeOf(caller, id, 'close', async (move) => {
        const { conversation, memory, handoverCount } = move.record;
        await close(move, resolved ?? (conversation.state === 'ai' && memory.lastReplyAnswered && handoverCount === 0), 'caller');
      }),

    humanMessage: (caller: Caller, id: string, text: string, author: { name?: string | undefined; ref?: string | undefined } = {}) =>
      changeOf(caller, id, 'human_message', async (move) => {
        await insertTurn(move.tx, id, { role: 'human', text }, move.at);
        move.emit('conversation.human_message', { text, ...(author.name ? { author_name: author.name } : {}), ...(author.ref ? { author_ref: author.ref } : {}) });
      }),

    async voiceSession(caller: Caller, id: string) {
      const { result } = await withConversation(caller, id, 'voice_session', async (move) => {
        const { token, expiresAt } = await createVoiceSession(move.tx, id, move.at, VOICE_TOKEN_TTL_MS);
        return { token, conversation_id: id, expires_at: expiresAt.toISOString() };
      });
      return result;
    },

    /** Uses a single-use voice token: the first use connects, any later one is refused. */
    async connectVoice(token: string) {
      const outcome = await redeemVoiceSession(sql, token, now());
      if (outcome === 'used') throw new ParleyError('token_used', 'This voice session token has already been used.');
      if (!outcome) throw new ParleyError('unauthorized', 'The voice session token is not valid or has expired.');
      const [row] = await sql.query<Pick<Conversation, 'customer_ref' | 'state'>>('SELECT customer_ref, state FROM conversations WHERE id = $1', [outcome.conversationId]);
      return { conversation_id: outcome.conversationId, customer_ref: row!.customer_ref, state: row!.state };
    },

    async transcript(caller: Caller, id: string): Promise<Transcript> {
      const { conversation } = await conversationOf(caller, id);
      return { conversation_id: id, customer_ref: conversation.customer_ref, state: conversation.state, turns: await listTurns(sql, id) };
    },

    async export(caller: Caller, id: string): Promise<ConversationExport> {
      const record = await conversationOf(caller, id);
      const [turns, requests, events] = await Promise.all([listTurns(sql, id), listActionRequests(sql, id), eventsOfConversation(sql, caller, id)]);
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
        quality: record.quality ? { conversation_id: id, ...(record.quality as Omit<QualityScore, 'conversation_id'>) } : null,
      };
    },

    async quality(caller: Caller, id: string): Promise<QualityScore> {
      const record = await conversationOf(caller, id);
      if (!record.quality) throw new ParleyError('invalid_state', `Conversation ${id} is scored when it closes; it is still open.`);
      return { conversation_id: id, ...(record.quality as Omit<QualityScore, 'conversation_id'>) };
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;

/** A transcript as plain text, for `export?format=text`. */
export function transcriptText(exported: ConversationExport): string {
  const names = { customer: 'Customer', ai: 'AI', human: 'Agent', system: '—' } as const;
  const { conversation } = exported;
  const lines = [
    `Conversation ${conversation.id} with ${conversation.customer_ref}`,
    `Opened ${conversation.created_at}${conversation.closed_at ? `, closed ${conversation.closed_at}${conversation.resolved ? ' (resolved)' : ''}` : ''}`,
    '',
    ...exported.turns.map((turn) => `[${turn.created_at}] ${names[turn.role]}: ${turn.text}`),
  ];
  if (exported.quality) lines.push('', `Quality: ${exported.quality.score}/100`);
  return `${lines.join('\n')}\n`;
}
