import { replyOf, type EngineEvent, type MessageUpdate, type WidgetMessage } from '../shared/index.ts';
import type { Queryable, Sql } from '../shared/server/index.ts';
import type { Publisher } from './realtime.ts';
import { askSurvey, insertMessage, markCustomerMessagesRead, setUpstream, updateConversation, type ConversationRecord } from './store/conversations.ts';

/** Notices the widget shows when the engine moves a conversation. */
export const NOTICES = {
  handover: "You're being connected with a person from our team. They will answer here.",
  handback: "You're chatting with our AI assistant again.",
} as const;

type Effect = (publisher: Publisher) => void;

/**
 * Turns engine events into stored messages and conversation changes, and pushes them once
 * committed. Events arrive by more than one path (the engine's answer, the feed, webhooks); the
 * table of seen event ids makes each count once.
 */
export function createEngineEventRecorder({ sql, publisher, now }: { sql: Sql; publisher: Publisher; now: () => Date }) {
  async function apply(tx: Queryable, conversation: ConversationRecord, event: EngineEvent, effects: Effect[]): Promise<void> {
    const fresh = await tx.query('INSERT INTO engine_events_seen (event_id, seen_at) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1', [event.id, now()]);
    if (fresh.length === 0) return;
    const at = now();
    const say = async (message: Parameters<typeof insertMessage>[2]) => {
      const { message: stored, created } = await insertMessage(tx, conversation, { ...message, engineEventId: event.id }, at);
      if (!created) return undefined;
      effects.push((publish) => publish.messageCreated(conversation, stored));
      return stored;
    };
    const answered = async (stored: WidgetMessage | undefined) => {
      if (!stored) return;
      const read = await markCustomerMessagesRead(tx, conversation.id, stored.id, at);
      effects.push((publish) => {
        for (const id of read) publish.messageUpdated(conversation, { id, conversation_id: conversation.uuid, status: 'read' } satisfies MessageUpdate);
      });
    };
    switch (event.type) {
      case 'conversation.reply': {
        const reply = replyOf(event);
        if (reply) await answered(await say({ author: 'ai', text: reply.text, attributes: { choices: reply.choices, card: reply.card } }));
        return;
      }
      case 'conversation.human_message': {
        const name = event.data['author_name'];
        if (typeof event.data['text'] === 'string') await answered(await say({ author: 'human', text: event.data['text'], authorName: typeof name === 'string' ? name : undefined }));
        return;
      }
      case 'conversation.handover':
        await updateConversation(tx, conversation.id, { handledBy: 'human' }, at);
        conversation.handledBy = 'human';
        await say({ author: 'system', text: NOTICES.handover });
        effects.push((publish) => publish.handedOver(conversation));
        return;
      case 'conversation.handback':
        await updateConversation(tx, conversation.id, { handledBy: 'ai' }, at);
        conversation.handledBy = 'ai';
        await say({ author: 'system', text: NOTICES.handback });
        effects.push((publish) => publish.handedBack(conversation));
        return;
      case 'conversation.closed': {
        const resolved = event.data['resolved'] === true;
        const wasOpen = conversation.status === 'open';
        await updateConversation(tx, conversation.id, { status: 'resolved', engineClosed: true, resolvedByAi: resolved }, at);
        conversation.status = 'resolved';
        conversation.engineClosed = true;
        // A close the customer asked for was already announced and asked for a rating; one the AI made is news.
        if (!wasOpen) return;
        effects.push((publish) => publish.closed(conversation, resolved));
        const question = await askSurvey(tx, conversation, at);
        if (question) effects.push((publish) => publish.surveyAsked(conversation, question));
        return;
      }
      default:
        // Action requests, quality scores and types added later show nothing to the customer.
        return;
    }
  }

  return {
    /**
     * Applies `events` to the conversation in one transaction; with `forwardedMessageRowId`, also
     * marks that customer message as accepted by the engine.
     */
    async record(conversation: ConversationRecord, events: readonly EngineEvent[], forwardedMessageRowId?: number): Promise<void> {
      const effects: Effect[] = [];
      await sql.transaction(async (tx) => {
        if (forwardedMessageRowId !== undefined) {
          await setUpstream(tx, forwardedMessageRowId, 'forwarded');
          effects.push((publish) => publish.messageUpdated(conversation, { id: forwardedMessageRowId, conversation_id: conversation.uuid, status: 'delivered' }));
        }
        for (const event of events) await apply(tx, conversation, event, effects);
      });
      for (const effect of effects) effect(publisher);
    },
  };
}

export type EngineEventRecorder = ReturnType<typeof createEngineEventRecorder>;
