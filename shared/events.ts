import { z } from 'zod';

/** Every event type of the AI conversation API (SPEC "Event types"). New ones may be added. */
export const EVENT_TYPES = [
  'conversation.opened',
  'conversation.reply',
  'conversation.action_request',
  'conversation.handover',
  'conversation.handback',
  'conversation.closed',
  'conversation.human_message',
  'call.started',
  'call.ended',
  'media.understood',
  'media.failed',
  'quality.scored',
  'monitor.finding',
  'interview.completed',
  'report.ready',
  'survey.response',
  'ping',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** A button the customer can press instead of typing; pressing it sends `value` as their message. */
export const ReplyChoice = z.object({ label: z.string().min(1).max(200), value: z.string().min(1).max(500) });
export type ReplyChoice = z.infer<typeof ReplyChoice>;

/** A small card of facts (for example an order's status), shown with the reply's text. */
export const ReplyCard = z.object({
  title: z.string().min(1).max(200),
  fields: z.array(z.object({ label: z.string().max(100), value: z.string().max(500) })).max(20),
});
export type ReplyCard = z.infer<typeof ReplyCard>;

export const ReplyData = z.object({
  type: z.literal('reply'),
  reply_id: z.string().startsWith('rpl_'),
  format: z.literal('chat'),
  text: z.string(),
  choices: z.array(ReplyChoice).max(10).optional(),
  card: ReplyCard.optional(),
});
export type ReplyData = z.infer<typeof ReplyData>;

/** An event as the feed and the message answer give it. `data` depends on `type`. */
export const EngineEvent = z.object({
  id: z.string().startsWith('evt_'),
  type: z.string(),
  created_at: z.string(),
  conversation_id: z.string().startsWith('cnv_'),
  data: z.record(z.string(), z.unknown()),
});
export type EngineEvent = z.infer<typeof EngineEvent>;

/**
 * Narrows an event to a reply and gives its data, or `undefined` for any other event. Choices or
 * a card that do not have the expected shape are left out; the text still counts.
 */
export function replyOf(event: EngineEvent): ReplyData | undefined {
  if (event.type !== 'conversation.reply') return undefined;
  const { choices, card, ...base } = event.data;
  const parsed = ReplyData.omit({ choices: true, card: true }).safeParse(base);
  if (!parsed.success) return undefined;
  const reply: ReplyData = parsed.data;
  const validChoices = ReplyData.shape.choices.safeParse(choices);
  if (validChoices.success && validChoices.data) reply.choices = validChoices.data;
  const validCard = ReplyCard.safeParse(card);
  if (validCard.success) reply.card = validCard.data;
  return reply;
}
