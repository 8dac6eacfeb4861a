import { z } from 'zod';
import { ClientMessageId, LocaleTag, MAX_SESSION_TTL_S, MessageText, VerifiedCustomerRef } from './engine.ts';
import { ReplyCard, ReplyChoice } from '../events.ts';
import { MediaType } from './engine-media.ts';

/** Bodies of the BFF's widget routes (`/v1/widget-sessions`, `/v1/widget/...`). */

/** The `wst_` prefix of a widget session token (DESIGN.md "Credentials"). */
export const SESSION_TOKEN_PREFIX = 'wst_';

/**
 * With a site key: optionally the visitor's previous token, to renew the same visitor, and the
 * browser's time zone, which names the visitor for the people ("Visitor from Berlin").
 */
export const VisitorSessionRequest = z.strictObject({
  token: z.string().max(4096).optional(),
  time_zone: z
    .string()
    .max(1000)
    .optional()
    .describe(
      "The browser's IANA time zone (Intl.DateTimeFormat().resolvedOptions().timeZone, e.g. Europe/Berlin): " +
        "kept for the people's list; one that is not an Area/Place of at most 64 characters is ignored.",
    ),
});

/**
 * With an API key: the verified customer the site's server vouches for, and optionally which of
 * the key's account's inboxes they talk to (the inbox's id, as the helpdesk's Application API
 * numbers it); without one, the account's first inbox, or the installation's default inbox for
 * the installation's own keys.
 */
export const VerifiedSessionRequest = z.strictObject({
  customer_ref: VerifiedCustomerRef,
  name: z.string().trim().min(1).max(200).optional(),
  email: z.email().max(320).optional(),
  ttl_s: z.number().int().min(60).max(MAX_SESSION_TTL_S).optional(),
  inbox_id: z
    .number()
    .int()
    .min(1)
    .max(2_147_483_647)
    .optional()
    .describe(
      "Which inbox of the key's account the customer talks to (its Application API id); by default the account's first.",
    ),
});

/** The body of `POST /v1/widget-sessions`: one of the two, by the credential sent. */
export const WidgetSessionRequest = z.union([VisitorSessionRequest, VerifiedSessionRequest]);
export type WidgetSessionRequest = z.infer<typeof WidgetSessionRequest>;

export const WidgetSession = z.object({
  token: z.string().startsWith(SESSION_TOKEN_PREFIX),
  ttl_s: z.number().int(),
  expires_at: z.string(),
  customer_ref: z.string(),
  verified: z.boolean(),
});
export type WidgetSession = z.infer<typeof WidgetSession>;

export const RevokeSessionRequest = z.strictObject({ token: z.string().min(1).max(4096) });

export const MessageAuthor = z.enum(['customer', 'ai', 'human', 'system']);
export type MessageAuthor = z.infer<typeof MessageAuthor>;

/**
 * Where a message is. The customer's: `sent` (the BFF has it), `delivered` (the engine has it),
 * `read` (an answer came after it), `failed` (the engine refused it). Everyone else's: `sent`.
 */
export const MessageStatus = z.enum(['sent', 'delivered', 'read', 'failed']);
export type MessageStatus = z.infer<typeof MessageStatus>;

/**
 * A file sent with a message, checked by its content: an image (shown as a thumbnail) or a PDF (a
 * file chip). `url` is where the BFF serves its bytes, to the same session token (in the
 * Authorization header, as every widget route takes it).
 */
export const WidgetAttachment = z.object({
  id: z.number().int(),
  kind: z.enum(['image', 'file', 'audio', 'video']),
  content_type: MediaType,
  /** The file's name as sent, made safe to show, with the extension of its checked type. */
  name: z.string(),
  size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  url: z.string().describe('The path of GET /v1/widget/conversations/{id}/attachments/{attachment_id}'),
});
export type WidgetAttachment = z.infer<typeof WidgetAttachment>;

export const WidgetMessage = z.object({
  id: z.number().int(),
  conversation_id: z.string(),
  message_id: z.string().nullable(),
  author: MessageAuthor,
  /** The person's name for answers from people. */
  author_name: z.string().nullable(),
  text: z.string(),
  status: MessageStatus,
  /** Buttons the customer can press instead of typing. */
  choices: z.array(ReplyChoice).nullable(),
  card: ReplyCard.nullable(),
  created_at: z.string(),
  /** Only on messages with files (the customer's photos and PDFs). */
  attachments: z.array(WidgetAttachment).optional(),
  /** Only on the notices of a move (`author: system`), so the widget can say them in its own language; `text` is the English. */
  notice: z.enum(['handover', 'handback']).optional(),
});
export type WidgetMessage = z.infer<typeof WidgetMessage>;

export const WidgetConversation = z.object({
  id: z.string(),
  status: z.enum(['open', 'resolved']),
  /** Who answers now: the AI, or people after a handover. */
  handled_by: z.enum(['ai', 'human']),
  created_at: z.string(),
  /** Messages from the AI or people after the customer's read position. */
  unread: z.number().int(),
  /** The latest message that is not a notice: the list shows it as the preview. */
  last_message: WidgetMessage.nullable(),
  survey: z.object({ rating: z.number().int(), comment: z.string() }).nullable(),
});
export type WidgetConversation = z.infer<typeof WidgetConversation>;

export const WidgetConversationList = z.object({ conversations: z.array(WidgetConversation) });

/** Chatwoot's `reply_time`: what the widget says about how soon people answer. */
export const ReplyTime = z.enum(['in_a_few_minutes', 'in_a_few_hours', 'in_a_day']);
export type ReplyTime = z.infer<typeof ReplyTime>;

/**
 * A research interview an inbox offers on the widget's home screen (issue 29): the engine
 * interview's id, and the button's words (the widget's own, translated, when left out).
 */
export const InterviewOffer = z.strictObject({
  interview_id: z.string().regex(/^ivw_[0-9A-Za-z]{16,64}$/, 'an interview id (ivw_…)'),
  label: z.string().trim().min(1).max(100).optional(),
});
export type InterviewOffer = z.infer<typeof InterviewOffer>;

export const WidgetConfig = z.object({
  inbox: z.object({
    name: z.string(),
    /** In the language asked for (`?locale=`) when the inbox has a translation, else the inbox's own. */
    greeting: z.string(),
    color: z.string(),
    locale: z.string(),
    /** The shop's logo (https only); absent when none is set. */
    avatar_url: z.string().optional(),
    reply_time: ReplyTime.optional(),
    /**
     * Chatwoot's welcome title and tagline for the home screen, in the language asked for when the
     * inbox has it, else the inbox's own; absent when not set.
     */
    welcome_title: z.string().optional(),
    welcome_tagline: z.string().optional(),
    /**
     * At most 3 questions the home screen offers as buttons, in the language asked for when the inbox
     * has them, else the inbox's own; absent when none are set.
     */
    suggested_questions: z.array(z.string()).optional(),
    /** A public address that reaches the shop another way; absent when not set. */
    email: z.string().optional(),
    /** True outside the inbox's working hours (only when it has them): people answer when back, the AI still answers. */
    away: z.boolean().optional(),
    /** What the inbox says while away; absent when not set. */
    out_of_office_message: z.string().optional(),
    /**
     * Whether someone who answers the inbox is online now (their availability in the console); absent
     * while nobody of its account has ever said. False: the widget says people answer later or by e-mail.
     */
    people_available: z.boolean().optional(),
    /** A running interview the home screen offers as a button; absent when the inbox offers none. */
    interview_offer: InterviewOffer.optional(),
  }),
  features: z.object({
    survey: z.boolean(),
    prechat_form: z.boolean(),
    several_conversations: z.boolean(),
    /** The customer may call the inbox's people now: calls are on, someone is available, within hours (issue 30). */
    calls: z.boolean().optional(),
  }),
  customer: z.object({ customer_ref: z.string(), verified: z.boolean(), name: z.string().nullable() }),
});
export type WidgetConfig = z.infer<typeof WidgetConfig>;

/** `GET /v1/widget/config?locale=`: the language the widget shows, for the greeting and the welcome. */
export const WidgetConfigQuery = z.strictObject({
  locale: LocaleTag.optional().describe(
    'The language the widget shows: the greeting, welcome title, tagline and suggested questions come in it ' +
      'when the inbox has a translation.',
  ),
});

/** Opening a conversation; a visitor may give a name and an email (the pre-chat form). */
export const OpenWidgetConversationRequest = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  email: z.email().max(320).optional(),
  locale: LocaleTag.optional().describe("The language the widget shows: the AI's own words use it."),
});

/** `POST /v1/widget/interviews`: the interview the inbox offers, started by the visitor. */
export const OpenWidgetInterviewRequest = z.strictObject({
  interview_id: InterviewOffer.shape.interview_id,
  locale: LocaleTag.optional().describe("The language the widget shows: the AI's own words use it."),
});

export const EmptyRequest = z.strictObject({});

export const ConversationUuid = z.strictObject({ id: z.string().max(100).describe('The conversation id (a UUID)') });

export const SendWidgetMessageRequest = z.strictObject({
  text: MessageText,
  message_id: ClientMessageId,
  socket_id: z
    .string()
    .regex(/^[\w-]{1,64}$/, 'a socket id is 1 to 64 letters, digits, - or _')
    .optional()
    .describe(
      "The sending tab's `/widget` socket (its id): the message is not pushed back to it, since the answer to this request has it. The customer's other tabs get it.",
    ),
});
export type SendWidgetMessageRequest = z.infer<typeof SendWidgetMessageRequest>;

/** The text fields of an upload (`POST /v1/widget/conversations/{id}/attachments`, multipart with one `file`). */
export const SendWidgetAttachmentFields = z.strictObject({
  message_id: ClientMessageId,
  text: z.string().trim().max(150_000).optional().describe('Words sent with the file (optional)'),
});

export const AttachmentParams = z.strictObject({
  id: z.string().max(100).describe('The conversation id (a UUID)'),
  attachment_id: z.string().max(20).describe('The attachment id'),
});

export const MessagesQuery = z.strictObject({
  after: z.coerce.number().int().min(0).optional().describe('The id of the last message you have; omit for the start'),
});

export const MessagesPage = z.object({
  messages: z.array(WidgetMessage),
  next: z.number().int().nullable(),
});
export type MessagesPage = z.infer<typeof MessagesPage>;

/**
 * `POST /v1/widget/start`: what the widget shows when it opens, in one request (issue 34). Sent as a
 * form, it is a CORS simple request: no preflight, and the session token in the body, never in the URL.
 */
export const WidgetStartRequest = z.strictObject({
  token: z
    .string()
    .max(4096)
    .optional()
    .describe('The wst_ session token, when it is not in the Authorization header (a header costs a preflight)'),
  locale: WidgetConfigQuery.shape.locale,
  conversation_id: ConversationUuid.shape.id
    .optional()
    .describe("The conversation this device shows: its first page of history comes too when it is the customer's"),
});
export const WidgetStart = z.object({
  config: WidgetConfig,
  conversations: z.array(WidgetConversation),
  /** The first page of `conversation_id`'s history; null when none was asked for or it is not the customer's. */
  history: MessagesPage.nullable(),
});
export type WidgetStart = z.infer<typeof WidgetStart>;

export const TypingRequest = z.strictObject({ typing: z.boolean() });

export const ReadRequest = z.strictObject({ last_read_id: z.number().int().min(0) });
export const ReadState = z.object({
  conversation_id: z.string(),
  last_read_id: z.number().int(),
  unread: z.number().int(),
});

export const SurveyRequest = z.strictObject({
  rating: z.number().int().min(1).max(5),
  comment: z.string().trim().max(2000).optional(),
});
export const SurveyAnswer = z.object({ conversation_id: z.string(), rating: z.number().int(), comment: z.string() });

/**
 * `GET /v1/widget/help/articles?q=&locale=`: the approved knowledge's titles in the visitor's language,
 * those matching q when given.
 */
export const HelpArticlesQuery = z.strictObject({
  q: z
    .string()
    .trim()
    .max(100)
    .optional()
    .describe('Words the titles should hold (at most 100 characters); omit for the most useful articles.'),
  locale: LocaleTag.optional().describe(
    'The language the widget shows: the articles in its language (de for de-AT), or the English ones when ' +
      'none is approved in it; English when left out.',
  ),
});

export const HelpArticleSummary = z.object({ id: z.string(), title: z.string() });
export type HelpArticleSummary = z.infer<typeof HelpArticleSummary>;

export const HelpArticleList = z.object({
  articles: z.array(HelpArticleSummary).describe('At most 10 approved articles.'),
});
export type HelpArticleList = z.infer<typeof HelpArticleList>;

export const HelpArticleParams = z.strictObject({ id: z.string().max(100).describe('The article id (doc_…)') });

/** One approved article; `body` is markdown. */
export const HelpArticle = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  url: z.string().nullable(),
});
export type HelpArticle = z.infer<typeof HelpArticle>;
