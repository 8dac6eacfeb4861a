/**
 * What a move writes on its conversation: the AI's words and notes, its memory, a handover, a
 * close (scored), an action asked for or settled. Each act takes the move it is part of, so it
 * runs in that move's transaction and its events go out with the move's.
 */
import { newId, type ReplyCard, type ReplyChoice } from '../../shared/index.ts';
import { cardOf, describeResult, isFailure, type ActionDefinition, type ActionInputs } from '../brain/actions.ts';
import { FRESH_MEMORY, type BrainMemory, type Decision } from '../brain/brain.ts';
import { greetingFor } from '../brain/agent-profile.ts';
import { scoreQuality } from '../brain/quality.ts';
import { nextState } from '../conversation-states.ts';
import { aiHasSpoken, type AgentRecord } from '../store/agent.ts';
import {
  completeActionRequest,
  findActionTarget,
  findSandboxFixture,
  insertActionRequest,
  listActionRequests,
} from '../store/actions.ts';
import { insertTurn, recordAnswerFeedback, turnCounts, updateConversation } from '../store/conversations.ts';
import { eventsOfConversation } from '../store/events.ts';
import type { Move } from './moves.ts';

export async function say(
  move: Move,
  text: string,
  answered?: boolean,
  extra: { choices?: ReplyChoice[] | undefined; card?: ReplyCard | undefined } = {},
): Promise<void> {
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
export async function greet(move: Move, agent: AgentRecord): Promise<void> {
  const greeting = greetingFor(agent.profile, move.record.locale ?? undefined);
  if (greeting && !(await aiHasSpoken(move.tx, move.record.conversation.id))) await say(move, greeting);
}

export async function note(move: Move, text: string): Promise<void> {
  await insertTurn(move.tx, move.record.conversation.id, { role: 'system', text }, move.at);
}

export async function setMemory(move: Move, memory: BrainMemory): Promise<void> {
  await updateConversation(move.tx, move.record.conversation.id, { memory }, move.at);
  move.record.memory = memory;
}

export async function handOver(move: Move, reason: string, requestedBy: 'ai' | 'caller'): Promise<void> {
  const handoverCount = move.record.handoverCount + 1;
  const state = nextState(move.record.conversation.state, 'handover');
  const changes = { state, handoverCount, memory: FRESH_MEMORY };
  await updateConversation(move.tx, move.record.conversation.id, changes, move.at);
  move.record.conversation.state = 'human';
  move.record.handoverCount = handoverCount;
  await note(move, 'The conversation was handed to people.');
  move.emit('conversation.handover', { type: 'handover', reason, requested_by: requestedBy });
}

export async function close(move: Move, resolved: boolean, closedBy: 'ai' | 'caller'): Promise<void> {
  const id = move.record.conversation.id;
  nextState(move.record.conversation.state, 'close');
  // One after another: a transaction is one connection, which runs one query at a time.
  const counts = await turnCounts(move.tx, id);
  const requests = await listActionRequests(move.tx, id);
  const stored = await eventsOfConversation(move.tx, move.caller, id);
  const handovers = [...stored, ...move.drafts].flatMap((event) =>
    event.type === 'conversation.handover' ? [event.data] : [],
  );
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
export async function settleAction(
  move: Move,
  requestId: string,
  action: ActionDefinition | undefined,
  inputs: ActionInputs,
  result: Record<string, unknown>,
  phrased?: string,
): Promise<'succeeded' | 'failed'> {
  const status = isFailure(result) ? 'failed' : 'succeeded';
  await completeActionRequest(move.tx, requestId, status, result, move.at);
  await note(move, `The action ${action?.name ?? 'requested'} ${status}.`);
  if (move.record.conversation.state === 'ai' && action) {
    const text = phrased ?? describeResult(action, inputs, result);
    await say(move, text, status === 'succeeded', { card: cardOf(action, inputs, result) });
    await setMemory(move, { ...FRESH_MEMORY, lastReplyAnswered: status === 'succeeded' });
  }
  return status;
}

/** Asks for an action: a sandbox fixture settles it at once; a live action with a URL is called after the commit. */
async function requestAction(move: Move, decision: Extract<Decision, { kind: 'action' }>): Promise<void> {
  const { action, inputs } = decision;
  const { tx, caller } = move;
  const { accountId, environment } = caller;
  const fixture = environment === 'sandbox' ? await findSandboxFixture(tx, accountId, action.name) : undefined;
  // A live customer's request for an action with a URL is posted there after the commit; in the sandbox
  // only a fixture runs one.
  const byUrl = environment === 'live' && (await findActionTarget(tx, accountId, action.name)) !== undefined;
  const handledBy = fixture ? 'sandbox' : byUrl ? 'url' : null;
  const requestId = await insertActionRequest(tx, move.record.conversation.id, action.name, inputs, handledBy, move.at);
  await note(move, `The AI asked for the action ${action.name}.`);
  move.emit('conversation.action_request', {
    type: 'action_request',
    action_request_id: requestId,
    action: action.name,
    inputs,
    ...(handledBy ? { handled_by: handledBy } : {}),
  });
  await setMemory(move, { ...move.record.memory, awaitingAction: null, lastReplyAnswered: false, lastAnswer: null });
  if (fixture) await settleAction(move, requestId, action, inputs, fixture, decision.phrased);
}

/** Does what the brain decided. */
export async function carryOut(move: Move, decision: Decision): Promise<void> {
  const memory = move.record.memory;
  switch (decision.kind) {
    case 'reply': {
      await say(move, decision.text, decision.neutral ? undefined : decision.answered, { choices: decision.choices });
      if (decision.feedback) {
        await recordAnswerFeedback(move.tx, move.caller, move.record.conversation.id, decision.feedback, move.at);
      }
      const asked = decision.asked
        ? { lastQuestion: decision.asked.question, customerLanguage: decision.asked.language }
        : {};
      const next: BrainMemory = decision.neutral
        ? { ...memory, ...asked, awaitingAction: null, lastAnswer: null }
        : {
            ...memory,
            ...asked,
            unansweredStreak: decision.answered ? 0 : memory.unansweredStreak + 1,
            lastReplyAnswered: decision.answered,
            awaitingAction: null,
            lastAnswer: decision.source ?? null,
          };
      await setMemory(move, next);
      return;
    }
    case 'ask': {
      await say(move, decision.text);
      const awaitingAction = { action: decision.action, inputs: decision.inputs };
      await setMemory(move, { ...memory, awaitingAction, lastAnswer: null });
      return;
    }
    case 'action':
      await requestAction(move, decision);
      return;
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
