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
  'customer.forgotten',
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

/**
 * A reply's data (SPEC "reply event data"). Choices or a card of another shape are left out and
 * the text still counts: an engine that adds to them must not silence the reply.
 */
export const ReplyData = z.object({
  type: z.literal('reply'),
  reply_id: z.string().startsWith('rpl_'),
  format: z.literal('chat'),
  text: z.string(),
  choices: z.array(ReplyChoice).max(10).optional().catch(undefined),
  card: ReplyCard.optional().catch(undefined),
});
export type ReplyData = z.infer<typeof ReplyData>;

/** One reason behind a quality score, with how much it moved the score. */
export const QualityReason = z.object({
  code: z.string(),
  effect: z.number().int(),
  description: z.string(),
});
export type QualityReason = z.infer<typeof QualityReason>;

/** A report asked for with `POST /v1/reports` is ready to download (`GET /v1/reports/{id}/content`). */
export const ReportReadyData = z.object({
  report_id: z.string().startsWith('rpt_'),
  kind: z.string(),
  rows: z.number().int(),
});
export type ReportReadyData = z.infer<typeof ReportReadyData>;

/** The customer's answer to one question of a research interview; a skipped question's `answer` is empty. */
export const InterviewAnswer = z.object({ question_id: z.string(), answer: z.string(), skipped: z.boolean() });
export type InterviewAnswer = z.infer<typeof InterviewAnswer>;

/**
 * A research interview ended (`POST /v1/interviews/{id}/sessions` opened it): every question asked,
 * in order, with the customer's answer. `outcome` says how it ended: `completed` (every question
 * answered or skipped), `stopped` (the customer said stop) or `handed_over` (they asked for a person);
 * the questions not reached are not in `answers`.
 */
export const InterviewCompletedData = z.object({
  interview_id: z.string().startsWith('ivw_'),
  conversation_id: z.string(),
  answers: z.array(InterviewAnswer),
  outcome: z.enum(['completed', 'stopped', 'handed_over']),
});
export type InterviewCompletedData = z.infer<typeof InterviewCompletedData>;

/**
 * A monitor (`/v1/monitors`) found something in one message of a conversation: `message_id` is the
 * engine's id of that message (`trn_…`), `excerpt` the words around what was found (blanked when
 * the customer is forgotten).
 */
export const MonitorFindingData = z.object({
  monitor_id: z.string().startsWith('mon_'),
  /** The monitor's name when it found this, so a reader can say which one without asking the engine. */
  monitor_name: z.string().optional(),
  conversation_id: z.string(),
  message_id: z.string(),
  excerpt: z.string(),
  severity: z.enum(['low', 'medium', 'high']),
});
export type MonitorFindingData = z.infer<typeof MonitorFindingData>;

/** What the engine found in an uploaded medium (`POST /v1/media`); `text` only when a model with vision read it. */
export const MediaUnderstoodData = z.object({
  media_id: z.string().startsWith('med_'),
  conversation_id: z.string().optional(),
  type: z.string(),
  size: z.number().int(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  /** A PDF's page count. */
  pages: z.number().int().optional(),
  /** A voice note's or video's length in seconds, when its bytes state it. */
  duration_s: z.number().optional(),
  /** What a model read in an image, or a voice note's transcript (then `transcript` too). */
  text: z.string().optional(),
  /** A voice note's words, as the transcription API heard them (STT_BASE_URL); the AI answered them. */
  transcript: z.string().optional(),
});

/** A medium the engine could not understand (an unreadable PDF, the model failing), and why. */
export const MediaFailedData = z.object({
  media_id: z.string().startsWith('med_'),
  conversation_id: z.string().optional(),
  type: z.string(),
  size: z.number().int(),
  reason: z.string(),
  /**
   * `not_configured`: a voice note with no transcription API (STT_BASE_URL); `unavailable`: that API
   * failed; `unreadable`: the file itself (a damaged PDF).
   */
  code: z.enum(['not_configured', 'unavailable', 'unreadable']).optional(),
});

/** A customer's answer to the satisfaction survey (CSAT) of a conversation; a changed answer is a new event. */
export const SurveyResponseData = z.object({
  rating: z.number().int().min(1).max(5),
  comment: z.string().optional(),
  customer_ref: z.string(),
});

/**
 * A customer was forgotten (`POST /v1/customers/{customer_ref}/forget`): the engine erased what it
 * held of them. A receiver erases what it holds too: everything it keeps under `customer_ref` (in
 * the event's environment) and of the engine conversations named. The engine keeps the reference in
 * this event only for a week (`FORGET_NOTICE_KEPT_MS`), long enough for webhooks and feed readers.
 */
export const CustomerForgottenData = z.object({
  customer_ref: z.string(),
  /** The engine conversations the customer had (also those merged onto them from another reference). */
  conversation_ids: z.array(z.string()),
});

/** How a call reaches the customer: a person of the team (WebRTC, the BFF), or the AI (the engine's voice stream). */
export const CallMode = z.enum(['person', 'ai']);
/** Who ended a call: one side hanging up, or the connection dropping. */
export const CallEndedBy = z.enum(['customer', 'person', 'ai', 'network']);
export type CallMode = z.infer<typeof CallMode>;
export type CallEndedBy = z.infer<typeof CallEndedBy>;
/** Why the BFF ended a call no side hung up: nobody took it, it lasted too long, or a side's node stopped. */
export const CallEndedReason = z.enum(['rang_out', 'too_long', 'node_gone']);
export type CallEndedReason = z.infer<typeof CallEndedReason>;

/** A call began on a conversation (`POST /v1/voice-sessions/connect`, issue 30). */
export const CallStartedData = z.object({
  call_id: z.string().startsWith('call_'),
  conversation_id: z.string(),
  mode: CallMode,
});

/** A call ended, once: how long it lasted in whole seconds, and who ended it. */
export const CallEndedData = z.object({
  call_id: z.string().startsWith('call_'),
  conversation_id: z.string(),
  duration_s: z.number().int().min(0),
  ended_by: CallEndedBy,
  /** Set when the BFF ended it for a reason of its own (`ended_by` is then `network` or `person`). */
  reason: CallEndedReason.optional(),
});
export type CallEndedData = z.infer<typeof CallEndedData>;

/**
 * The `data` of each event type, one zod source for the engine that writes it and the BFF that
 * reads it. Types whose data SPEC does not show, and that this engine does not emit, carry any object.
 */
export const EVENT_DATA = {
  'conversation.opened': z.object({ customer_ref: z.string() }),
  'conversation.reply': ReplyData,
  'conversation.action_request': z.object({
    type: z.literal('action_request'),
    action_request_id: z.string(),
    action: z.string(),
    inputs: z.record(z.string(), z.unknown()),
    /**
     * Set when the caller need not run the action: `sandbox`, the engine ran it with a sandbox
     * fixture; `url`, the engine posts it to the action's URL (live customers) and records the answer.
     */
    handled_by: z.enum(['sandbox', 'url']).optional(),
  }),
  'conversation.handover': z.object({
    type: z.literal('handover'),
    reason: z.string(),
    requested_by: z.enum(['ai', 'caller']),
  }),
  'conversation.handback': z.object({ type: z.literal('handback') }),
  'conversation.closed': z.object({
    type: z.literal('close'),
    resolved: z.boolean(),
    closed_by: z.enum(['ai', 'caller']),
  }),
  'conversation.human_message': z.object({
    text: z.string(),
    author_name: z.string().optional(),
    author_ref: z.string().optional(),
  }),
  'call.started': CallStartedData,
  'call.ended': CallEndedData,
  'media.understood': MediaUnderstoodData,
  'media.failed': MediaFailedData,
  'quality.scored': z.object({ score: z.number().int().min(0).max(100), reasons: z.array(QualityReason) }),
  'monitor.finding': MonitorFindingData,
  'interview.completed': InterviewCompletedData,
  'report.ready': ReportReadyData,
  'survey.response': SurveyResponseData,
  ping: z.record(z.string(), z.unknown()),
  'customer.forgotten': CustomerForgottenData,
} as const satisfies Record<EventType, z.ZodType>;

/** The data of one event type, e.g. `EventData<'conversation.closed'>` is `{type, resolved, closed_by}`. */
export type EventData<T extends EventType> = z.infer<(typeof EVENT_DATA)[T]>;

const EventId = z.string().startsWith('evt_');

/** An event of one conversation: its `conversation_id` is the conversation's `cnv_…` id. */
const conversationEvent = <T extends EventType>(type: T) =>
  z.object({
    id: EventId,
    type: z.literal(type),
    created_at: z.string(),
    conversation_id: z.string().startsWith('cnv_'),
    data: EVENT_DATA[type],
  });

/** An event that may belong to no conversation (`ping`, `report.ready`): `conversation_id` may be null. */
const accountEvent = <T extends EventType>(type: T) =>
  z.object({
    id: EventId,
    type: z.literal(type),
    created_at: z.string(),
    conversation_id: z.string().nullable(),
    data: EVENT_DATA[type],
  });

/**
 * An event as the feed, the message answer and webhooks give it, narrowed on `type`:
 * after `if (event.type === 'conversation.closed')`, `event.data.resolved` is a boolean.
 */
export const EngineEvent = z.discriminatedUnion('type', [
  conversationEvent('conversation.opened'),
  conversationEvent('conversation.reply'),
  conversationEvent('conversation.action_request'),
  conversationEvent('conversation.handover'),
  conversationEvent('conversation.handback'),
  conversationEvent('conversation.closed'),
  conversationEvent('conversation.human_message'),
  accountEvent('call.started'),
  accountEvent('call.ended'),
  accountEvent('media.understood'),
  accountEvent('media.failed'),
  accountEvent('quality.scored'),
  accountEvent('monitor.finding'),
  accountEvent('interview.completed'),
  accountEvent('report.ready'),
  accountEvent('survey.response'),
  accountEvent('ping'),
  accountEvent('customer.forgotten'),
]);
export type EngineEvent = z.infer<typeof EngineEvent>;

/** An event of one type, e.g. `EventOf<'conversation.reply'>`. */
export type EventOf<T extends EventType> = Extract<EngineEvent, { type: T }>;

/**
 * Reads events off the wire one by one. An event of a type this code does not know, or whose data
 * has not got its type's shape, is left out whole and the rest still count (SPEC Events rule 9):
 * one odd event never fails a page.
 *
 * @example readEvents(page.events).filter((event) => event.type === 'conversation.reply')
 */
export function readEvents(items: readonly unknown[]): EngineEvent[] {
  const events: EngineEvent[] = [];
  for (const item of items) {
    const parsed = EngineEvent.safeParse(item);
    if (parsed.success) events.push(parsed.data);
  }
  return events;
}

/** A list of events as another engine may send it: known events are read, the rest left out (see `readEvents`). */
export const WireEvents = z.array(z.unknown()).transform((items) => readEvents(items));
