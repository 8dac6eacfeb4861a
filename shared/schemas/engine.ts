import { z } from 'zod';
import { ENVIRONMENTS } from '../environment.ts';
import { CallEndedBy, CallEndedData, CallEndedReason, CallMode, EngineEvent, QualityReason } from '../events.ts';

/** Request and response bodies of the AI conversation API (`/v1` of the engine). */

export const CustomerRef = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
  .describe('Your reference for the customer.');

/** A client-made id that makes a retry safe (SPEC "message send"). */
export const ClientMessageId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[\w.:-]+$/, 'letters, digits, _ . : -');

/** What a customer or a person wrote: at most 150,000 characters, as Chatwoot allows. */
export const MessageText = z.string().trim().min(1).max(150_000);

export const ConversationId = z.string().regex(/^cnv_[0-9A-Za-z]{16,64}$/, 'a conversation id (cnv_…)');

export const ConversationIdParams = z.strictObject({ id: ConversationId });

export const OpenConversationRequest = z.strictObject({
  customer_ref: CustomerRef,
});
export type OpenConversationRequest = z.infer<typeof OpenConversationRequest>;

/**
 * Where a conversation is: with the AI, with people (after a handover), or closed.
 * The moves between them are in engine/conversation-states.ts.
 */
export const ConversationState = z.enum(['ai', 'human', 'closed']);
export type ConversationState = z.infer<typeof ConversationState>;

export const Conversation = z.object({
  id: z.string(),
  customer_ref: z.string(),
  state: ConversationState,
  created_at: z.string(),
  closed_at: z.string().nullable(),
  resolved: z.boolean().nullable(),
});
export type Conversation = z.infer<typeof Conversation>;

/** A language tag (BCP 47, e.g. `de` or `pt-BR`). */
export const LocaleTag = z
  .string()
  .max(35)
  .regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, 'a language tag such as de or pt-BR');

export const SendMessageRequest = z.strictObject({
  text: MessageText,
  message_id: ClientMessageId.optional(),
  locale: LocaleTag.optional().describe(
    "The customer's language: the AI's own words (not the articles it quotes) use it from now on.",
  ),
});
export type SendMessageRequest = z.infer<typeof SendMessageRequest>;

export const SendMessageResponse = z.object({
  conversation_id: z.string(),
  message_id: z.string().nullable(),
  events: z.array(EngineEvent),
});
export type SendMessageResponse = z.infer<typeof SendMessageResponse>;

/** The answer of a move (handover, handback, close, a person's message): the conversation after it and the events it made. */
export const ConversationChange = z.object({
  conversation: Conversation,
  events: z.array(EngineEvent),
});
export type ConversationChange = z.infer<typeof ConversationChange>;

export const HandoverRequest = z.strictObject({
  reason: z.string().trim().min(1).max(500).optional(),
});

export const HandbackRequest = z.strictObject({});

export const CloseRequest = z.strictObject({
  /** Overrides the engine's own judgement of whether the AI resolved the conversation. */
  resolved: z.boolean().optional(),
});

/** Who answered, as the helpdesk names them (`user:12`, `agent_bot:3`); echoed in the event so that every path that records it knows. */
export const AuthorRef = z.string().regex(/^[a-z_]{1,20}:[0-9A-Za-z_-]{1,40}$/, 'a kind and an id, e.g. user:12');

export const HumanMessageRequest = z.strictObject({
  text: MessageText,
  author_name: z.string().trim().min(1).max(100).optional(),
  author_ref: AuthorRef.optional(),
});

export const ActionRequestId = z.string().regex(/^act_[0-9A-Za-z]{16,64}$/, 'an action request id (act_…)');

export const ActionResultRequest = z.strictObject({
  action_request_id: ActionRequestId,
  /** The action's data on success, or `{status: 'failed', error}` on failure. */
  result: z.record(z.string(), z.unknown()),
});
export type ActionResultRequest = z.infer<typeof ActionResultRequest>;

export const ActionResultResponse = z.object({
  conversation_id: z.string(),
  action_request_id: z.string(),
  status: z.enum(['succeeded', 'failed']),
});

export const VoiceSession = z.object({
  token: z.string(),
  conversation_id: z.string(),
  expires_at: z.string(),
});

export const VoiceConnectRequest = z.strictObject({
  token: z.string().min(1).max(200),
  mode: CallMode.default('person').describe(
    'Who takes the call: a person of the team (default), or the AI (only when speech is configured).',
  ),
});

export const VoiceConnectResponse = z.object({
  conversation_id: z.string(),
  customer_ref: z.string(),
  state: ConversationState,
  /** The call the token began (call_…); end it with POST /v1/calls/{call_id}/end. */
  call_id: z.string(),
});
export type VoiceConnectResponse = z.infer<typeof VoiceConnectResponse>;

export const CallIdParams = z.strictObject({ id: z.string().min(1).max(100).describe('The call id (call_…)') });

export const EndCallRequest = z.strictObject({ ended_by: CallEndedBy, reason: CallEndedReason.optional() });
export type EndCallRequest = z.infer<typeof EndCallRequest>;

/** The ended call, as its call.ended event carries it. */
export const EndCallResponse = CallEndedData;
export type EndCallResponse = z.infer<typeof EndCallResponse>;

export const Turn = z.object({
  role: z.enum(['customer', 'ai', 'human', 'system']),
  text: z.string(),
  created_at: z.string(),
});
export type Turn = z.infer<typeof Turn>;

export const Transcript = z.object({
  conversation_id: z.string(),
  customer_ref: z.string(),
  state: ConversationState,
  turns: z.array(Turn),
});
export type Transcript = z.infer<typeof Transcript>;

export const QualityScore = z.object({
  conversation_id: z.string(),
  /** 0 (poor) to 100 (excellent). */
  score: z.number().int().min(0).max(100),
  reasons: z.array(QualityReason),
  scored_at: z.string(),
});
export type QualityScore = z.infer<typeof QualityScore>;

export const ActionRequestRecord = z.object({
  id: z.string(),
  action: z.string(),
  inputs: z.record(z.string(), z.unknown()),
  handled_by: z.string().nullable(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  created_at: z.string(),
});

export const ConversationExport = z.object({
  conversation: Conversation,
  turns: z.array(Turn),
  action_requests: z.array(ActionRequestRecord),
  events: z.array(EngineEvent),
  quality: QualityScore.nullable(),
});
export type ConversationExport = z.infer<typeof ConversationExport>;

export const ExportQuery = z.strictObject({
  format: z.enum(['json', 'text']).default('json'),
});

const EventTypeName = z.string().regex(/^[a-z_]+(\.[a-z_]+)*$/, 'event type names such as conversation.reply');

export const EventsQuery = z.strictObject({
  after: z
    .string()
    .regex(/^evt_[0-9A-Za-z]{16,64}$/, 'an event id (evt_…)')
    .optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  types: z
    .string()
    .max(2000)
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      const types = value
        .split(',')
        .map((type) => type.trim())
        .filter(Boolean);
      for (const type of types) {
        if (!EventTypeName.safeParse(type).success)
          context.addIssue({ code: 'custom', message: `${JSON.stringify(type)} is not an event type name` });
      }
      return types;
    })
    .describe('Comma-separated event types, e.g. conversation.reply,conversation.handover'),
});
export type EventsQuery = z.infer<typeof EventsQuery>;

export const EventsPage = z.object({
  events: z.array(EngineEvent),
  next: z.string().nullable(),
  has_more: z.boolean(),
});
export type EventsPage = z.infer<typeof EventsPage>;

export const MeResponse = z.object({
  account_id: z.string(),
  environment: z.enum(ENVIRONMENTS),
  key: z.object({ id: z.string(), prefix: z.string() }),
  limits: z.object({ requests_per_minute: z.number().int() }),
  /** The agent of the key's environment: whether the AI is switched off (kill switch). Absent from engines before it existed. */
  agent: z
    .object({
      kill_switch: z.object({ enabled: z.boolean(), reason: z.string().nullable(), since: z.string().nullable() }),
    })
    .optional(),
  /** Whether customers can call the AI (issue 30). Absent from engines before it existed. */
  ai_calls: z
    .boolean()
    .optional()
    .describe('Whether customers can call the AI: the engine has speech configured (STT_BASE_URL and TTS_BASE_URL).'),
});
export type MeResponse = z.infer<typeof MeResponse>;

export const MAX_SESSION_TTL_S = 6 * 3600;

/**
 * A verified customer's reference, as a site's server names it: never one of the forms Parley
 * gives customers itself (`vis_…` visitors, `ctc_…` Client API contacts), nor its sandbox space
 * (`test:…`), so a key cannot mint a token that speaks for a customer it did not make.
 */
export const VerifiedCustomerRef = CustomerRef.refine(
  (ref) => !/^(vis_|ctc_|test:)/.test(ref),
  'may not start with vis_, ctc_ or test: (those name customers Parley made)',
);

export const CreateSessionRequest = z.strictObject({
  customer_ref: VerifiedCustomerRef,
  name: z.string().trim().min(1).max(200).optional(),
  email: z.email().max(320).optional(),
  ttl_s: z.number().int().min(60).max(MAX_SESSION_TTL_S).optional(),
});
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;
