import type { EngineEvent } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import type { Change } from '../realtime/publisher.ts';
import { updateConversation, type ConversationRecord } from '../store/conversations.ts';
import { markEventSeen } from '../store/events-seen.ts';
import { insertMonitorFinding } from '../store/monitor-findings.ts';
import { insertMessage, messageIdOfEvent, type MessageSender, type NewMessage } from '../store/messages.ts';
import { askSurvey } from '../store/surveys.ts';
import { keepTranscript } from '../attachments/transcripts.ts';
import { nextInTurn, nobodyAvailableNotice, peopleAvailable } from '../helpdesk/inbox-availability.ts';
import { assignIfUnassigned } from '../helpdesk/store/desk-conversations.ts';

/**
 * What one engine event changes in the BFF's store: a message for the customer, a line for the
 * people, a move of the conversation. Each event counts once, whichever path brought it (the
 * engine's answer, a webhook, the feed): it is marked seen first, in the caller's transaction.
 */

/** Notices the widget shows when the engine moves a conversation. */
export const NOTICES = {
  handover: "You're being connected with a person from our team. They will answer here.",
  handback: "You're chatting with our AI assistant again.",
} as const;

/** One event being applied: where, when, and the changes to publish once committed. */
export interface EventStep {
  tx: Queryable;
  conversation: ConversationRecord;
  event: EngineEvent;
  at: Date;
  changes: Change[];
}

/** Who answered, from the `author_ref` the helpdesk gave the engine (`user:12`, `agent_bot:3`); anything else names nobody. */
function senderOf(ref: string | undefined): MessageSender | undefined {
  const [, kind, id] = /^(user|agent_bot):(\d{1,9})$/.exec(ref ?? '') ?? [];
  if (!kind || !id) return undefined;
  return kind === 'user' ? { userId: Number(id) } : { agentBotId: Number(id) };
}

/** The message of an event that answers the customer (the AI's reply, a person's answer); undefined for any other event. */
function answerOf(event: EngineEvent): NewMessage | undefined {
  switch (event.type) {
    case 'conversation.reply': {
      const { text, choices, card } = event.data;
      return { author: 'ai', text, attributes: { choices, card } };
    }
    case 'conversation.human_message':
      return {
        author: 'human',
        text: event.data.text,
        authorName: event.data.author_name,
        sender: senderOf(event.data.author_ref),
      };
    default:
      return undefined;
  }
}

/** A message the customer sees, kept under the event's id; gives its id when it is new. */
async function say(
  { tx, conversation, event, at, changes }: EventStep,
  message: NewMessage,
): Promise<number | undefined> {
  const { message: stored, created } = await insertMessage(
    tx,
    conversation,
    { ...message, engineEventId: event.id },
    at,
  );
  if (!created) return undefined;
  changes.push({ type: 'message.created', message: stored });
  return stored.id;
}

/** A line for the people only (never the customer): why the AI handed over, what it asked the site to do. */
async function tellPeople({ tx, conversation, event, at, changes }: EventStep, text: string): Promise<void> {
  const { message: stored, created } = await insertMessage(
    tx,
    conversation,
    { author: 'system', text, messageId: `team.${event.id}`, private: true },
    at,
  );
  if (created) changes.push({ type: 'note.created', messageId: stored.id });
}

async function actionRequested(step: EventStep & { event: { type: 'conversation.action_request' } }): Promise<void> {
  const { action, inputs, handled_by } = step.event.data;
  const given = Object.entries(inputs).map(
    ([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
  await tellPeople(
    step,
    `The AI asked the site to run ${action}${given.length ? ` (${given.join(', ')})` : ''}${handled_by === 'sandbox' ? '; the sandbox ran it with its fixture' : ''}.`,
  );
}

/**
 * A handover to people. Where the account uses presence (someone has said their availability), the
 * customer is told when nobody who answers the inbox is online, and otherwise the conversation goes
 * to the available person whose turn it is (round robin, as Chatwoot's auto-assignment does).
 */
async function handedOver(step: EventStep & { event: { type: 'conversation.handover' } }): Promise<void> {
  const { tx, conversation, event, at, changes } = step;
  await updateConversation(tx, conversation.id, { handledBy: 'human' }, at);
  conversation.handledBy = 'human';
  const available = await peopleAvailable(tx, conversation.inboxId);
  await say(
    step,
    available === false
      ? { author: 'system', text: nobodyAvailableNotice(conversation.locale) }
      : { author: 'system', text: NOTICES.handover, attributes: { notice: 'handover' } },
  );
  await tellPeople(
    step,
    `Handed over ${event.data.requested_by === 'ai' ? 'by the AI' : 'from the helpdesk'}: ${event.data.reason.replaceAll('_', ' ')}`,
  );
  changes.push({ type: 'handed_over' });
  const inTurn = available ? await nextInTurn(tx, conversation.inboxId) : undefined;
  if (inTurn !== undefined && (await assignIfUnassigned(tx, conversation.id, inTurn)))
    changes.push({ type: 'assigned', assigneeId: inTurn });
}

async function handedBack(step: EventStep): Promise<void> {
  const { tx, conversation, at, changes } = step;
  await updateConversation(tx, conversation.id, { handledBy: 'ai' }, at);
  conversation.handledBy = 'ai';
  await say(step, { author: 'system', text: NOTICES.handback, attributes: { notice: 'handback' } });
  changes.push({ type: 'handed_back' });
}

/** What a monitor found: kept for the team's Findings list, and a line for the people under the conversation. */
async function monitorFound(step: EventStep & { event: { type: 'monitor.finding' } }): Promise<void> {
  const { tx, conversation, event, at } = step;
  await insertMonitorFinding(tx, conversation, { engineEventId: event.id, data: event.data }, at);
  const { monitor_name: name, severity, excerpt } = event.data;
  await tellPeople(
    step,
    `${name ? `Monitor '${name}'` : 'A monitor'} flagged this message (${severity}): “${excerpt}”`,
  );
}

async function closed(step: EventStep & { event: { type: 'conversation.closed' } }): Promise<void> {
  const { tx, conversation, event, at, changes } = step;
  const { resolved } = event.data;
  const wasOpen = conversation.status === 'open';
  await updateConversation(tx, conversation.id, { status: 'resolved', engineClosed: true, resolvedByAi: resolved }, at);
  conversation.status = 'resolved';
  conversation.engineClosed = true;
  // A close the customer asked for was already announced and asked for a rating; one the AI made is news.
  if (!wasOpen) return;
  changes.push({ type: 'closed', resolved });
  const question = await askSurvey(tx, conversation, at);
  if (question) changes.push({ type: 'survey.asked', question });
}

/**
 * Applies one event; gives the id of the message that answered the customer, if it made one.
 * Events of types the BFF shows nothing for (quality scores, types added later) are only marked seen.
 */
export async function applyEvent(step: EventStep, byWebhook: boolean): Promise<number | undefined> {
  const { tx, conversation, event, at } = step;
  if (!(await markEventSeen(tx, event.id, at, byWebhook))) {
    // Kept before by another path (a webhook that raced the engine's answer): its message still answers.
    return answerOf(event) ? messageIdOfEvent(tx, conversation.id, event.id) : undefined;
  }
  switch (event.type) {
    case 'conversation.reply':
    case 'conversation.human_message':
      return say(step, answerOf(event)!);
    case 'conversation.action_request':
      await actionRequested({ ...step, event });
      return undefined;
    case 'conversation.handover':
      await handedOver({ ...step, event });
      return undefined;
    case 'conversation.handback':
      await handedBack(step);
      return undefined;
    case 'conversation.closed':
      await closed({ ...step, event });
      return undefined;
    case 'monitor.finding':
      await monitorFound({ ...step, event });
      return undefined;
    case 'media.understood':
      // A voice note's transcript, kept with the customer's attachment for the team (issue 30).
      if (event.data.transcript)
        await keepTranscript(step.tx, step.conversation.id, event.data.media_id, event.data.transcript);
      return undefined;
    default:
      return undefined;
  }
}
