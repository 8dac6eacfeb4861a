import { z } from 'zod';
import { ReplyTime } from '../../index.ts';
import { Origin } from '../origin.ts';
import { InterviewOffer } from '../widget.ts';
import { Attributes, Email, IdParam, Name, Role } from './fields.ts';
import { Person } from './people.ts';

/**
 * What an inbox's `ai_messages_per_address_per_minute` may be: at least the BFF's default of 60 (it
 * raises the limit, never lowers it), at most 3,000, the inbox's own limit for all addresses
 * together, beyond which it would mean nothing. The BFF's message limits take their defaults from it.
 */
export const AI_MESSAGES_PER_ADDRESS_RANGE = { least: 60, most: 3_000 } as const;

// Inboxes, their site keys and their agents (Application API; Chatwoot-shaped, Parley's settings).

export const InboxParams = z.strictObject({ account_id: IdParam, inbox_id: IdParam });
export const SiteKeyParams = InboxParams.extend({ key_id: IdParam });
const Color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour such as #1f3a5f');
const Timezone = z
  .string()
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'an IANA time zone such as Europe/Berlin');
const Origins = z.array(Origin).max(50);
/** Form fields arrive as text: "true"/"false" are taken for booleans. */
const Flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((text) => text === 'true')]);

/** A URL's text with its %-escapes read, again until none is left (double escapes too); a malformed one stays as it stands. */
const safeDecode = (url: string): string => {
  const once = url.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return once === url ? url : safeDecode(once);
};
/** The shop's logo: https only (the widget loads it on the shop's page), never a script. */
const AvatarUrl = z.union([
  z.literal('').describe('removes the logo'),
  z
    .url({ protocol: /^https$/, error: 'an https address such as https://shop.example/logo.png' })
    .max(2000)
    .refine((url) => !/javascript:/i.test(safeDecode(url)), 'an image address, not a script')
    .refine((url) => {
      const parsed = new URL(url);
      return !parsed.username && !parsed.password;
    }, 'an address without a user name or password'),
]);
const WidgetLocale = z.enum(['en', 'de', 'fr', 'es', 'ar', 'ja']);
const WelcomeTitle = z.string().trim().max(200);
const WelcomeTagline = z.string().trim().max(500);
const SuggestedQuestion = z.string().trim().min(1).max(120);
/**
 * A setting in the widget's other languages, by language: the widget's config gives the one in the
 * widget's language, else the setting itself. A PATCH replaces the whole map; `{}` removes them all.
 */
const translations = <T extends z.ZodType>(text: T) =>
  z
    .partialRecord(WidgetLocale, text)
    .describe("By widget language (en, de, fr, es, ar, ja); the widget's config gives the one it speaks.");
const Hour = z.number().int().min(0).max(23).nullable();
const Minutes = z.number().int().min(0).max(59).nullable();
/** One day of Chatwoot's weekly schedule, in the inbox's time zone; 0 is Sunday. */
const WorkingDay = z
  .strictObject({
    day_of_week: z.number().int().min(0).max(6),
    closed_all_day: z.boolean().default(false),
    open_all_day: z.boolean().default(false),
    open_hour: Hour.default(null),
    open_minutes: Minutes.default(null),
    close_hour: z.number().int().min(0).max(24).nullable().default(null),
    close_minutes: Minutes.default(null),
  })
  .refine(
    (day) =>
      day.closed_all_day ||
      day.open_all_day ||
      (day.open_hour !== null &&
        day.close_hour !== null &&
        day.open_hour * 60 + (day.open_minutes ?? 0) < day.close_hour * 60 + (day.close_minutes ?? 0) &&
        day.close_hour * 60 + (day.close_minutes ?? 0) <= 1440),
    {
      message: 'a day is closed_all_day, open_all_day, or opens (open_hour) before it closes (close_hour)',
    },
  );
const WorkingHours = z
  .array(WorkingDay)
  .length(7)
  .refine(
    (days) => new Set(days.map((day) => day.day_of_week)).size === 7,
    'each day of the week (0 Sunday … 6 Saturday) once',
  );

const { least, most } = AI_MESSAGES_PER_ADDRESS_RANGE;
/** A whole number, also as a form's or a command line's text (the inbox's PATCH takes forms). */
const PerMinute = z.number().int().min(least).max(most);
export const AiMessagesPerAddress = z
  .union([
    PerMinute,
    z
      .string()
      .regex(/^\d{1,9}$/, 'a whole number')
      .transform(Number)
      .pipe(PerMinute),
  ])
  .nullable()
  .describe(
    `New messages a minute that one client address (an IPv6 client by its /64) may send this inbox's AI, from visitors and unproved contacts together: ${least} (the default) to ${most}. ` +
      'Raise it when many customers share one address (an office, a mobile network); null goes back to the default. Over it a message is refused with 429 rate_limited and Retry-After, and nothing is kept.',
  );

export const InboxCreate = z.strictObject({
  name: Name,
  greeting_enabled: Flag.optional(),
  greeting_message: z.string().max(2000).optional(),
  widget_color: Color.optional(),
  locale: z.enum(['en', 'de', 'fr', 'es', 'ar', 'ja']).optional(),
  csat_survey_enabled: Flag.optional(),
  pre_chat_form_enabled: Flag.optional(),
  lock_to_single_conversation: Flag.optional(),
  working_hours_enabled: Flag.optional(),
  timezone: Timezone.optional(),
  out_of_office_message: z.string().max(2000).optional(),
  /** Identity validation: contacts must prove their identifier with identifier_hash. */
  hmac_mandatory: Flag.optional(),
  /** Origins that may call this inbox's Client API from a browser; empty: any. */
  allowed_origins: Origins.optional(),
  /** The shop's logo in the widget's header (https, at most 2000 characters); '' removes it. */
  avatar_url: AvatarUrl.optional(),
  /** The home screen's title and line below it (Chatwoot's names). */
  welcome_title: WelcomeTitle.optional(),
  welcome_tagline: WelcomeTagline.optional(),
  /** How soon people reply, as the widget's header says it. */
  reply_time: ReplyTime.nullable().optional(),
  /** At most 3 questions the widget offers as buttons before the first message. */
  suggested_questions: z.array(SuggestedQuestion).max(3).optional(),
  /** The greeting in the widget's other languages, by language: the widget shows the one it speaks. */
  greeting_translations: translations(z.string().trim().min(1).max(2000)).optional(),
  welcome_title_translations: translations(WelcomeTitle.min(1)).optional(),
  welcome_tagline_translations: translations(WelcomeTagline.min(1)).optional(),
  suggested_questions_translations: translations(z.array(SuggestedQuestion).min(1).max(3)).optional(),
  /** A public address that reaches the shop another way (shown when chat cannot be used); '' removes it. */
  email: z.union([z.literal(''), Email]).optional(),
  /** Seven days of Chatwoot's weekly schedule, in the inbox's timezone; used while working_hours_enabled. */
  working_hours: WorkingHours.optional(),
  /** Raises the per-address limit of messages to the AI (issue 26); null: the default. */
  ai_messages_per_address_per_minute: AiMessagesPerAddress.optional(),
});
export const InboxUpdate = InboxCreate.partial().extend({
  /** A research interview of the engine the widget's home screen offers (issue 29); null: none. */
  interview_offer: InterviewOffer.nullable().optional(),
  /** Whether the widget offers calls with the inbox's people while someone is available (issue 30). */
  calls_enabled: z.boolean().optional(),
});
export type InboxFields = z.infer<typeof InboxUpdate>;

export const Inbox = z.object({
  id: z.number().int(),
  account_id: z.number().int(),
  name: z.string(),
  channel_type: z.literal('Channel::WebWidget'),
  greeting_enabled: z.boolean(),
  greeting_message: z.string(),
  widget_color: z.string(),
  locale: z.string(),
  csat_survey_enabled: z.boolean(),
  pre_chat_form_enabled: z.boolean(),
  lock_to_single_conversation: z.boolean(),
  working_hours_enabled: z.boolean(),
  timezone: z.string(),
  out_of_office_message: z.string(),
  hmac_mandatory: z.boolean(),
  /** The Client API's inbox identifier. */
  inbox_identifier: z.string().nullable(),
  allowed_origins: z.array(z.string()),
  /** The agent bot connected to the inbox: it acts on this inbox's conversations. */
  agent_bot_id: z.number().int().nullable(),
  created_at: z.string(),
  /** The identity validation key: in the answers that made or rotated it only. */
  hmac_token: z.string().optional(),
  avatar_url: z.string(),
  welcome_title: z.string(),
  welcome_tagline: z.string(),
  reply_time: ReplyTime.nullable().describe('null until set: the widget then says nothing about it'),
  suggested_questions: z.array(z.string()),
  greeting_translations: z.record(z.string(), z.string()),
  welcome_title_translations: z.record(z.string(), z.string()),
  welcome_tagline_translations: z.record(z.string(), z.string()),
  suggested_questions_translations: z.record(z.string(), z.array(z.string())),
  email: z.string(),
  working_hours: z.array(
    z.object({
      day_of_week: z.number().int(),
      closed_all_day: z.boolean(),
      open_all_day: z.boolean(),
      open_hour: z.number().int().nullable(),
      open_minutes: z.number().int().nullable(),
      close_hour: z.number().int().nullable(),
      close_minutes: z.number().int().nullable(),
    }),
  ),
  ai_messages_per_address_per_minute: z
    .number()
    .int()
    .describe(`New messages a minute one client address may send this inbox's AI (${least} unless raised).`),
  interview_offer: InterviewOffer.nullable()
    .optional()
    .describe("The engine interview the widget's home screen offers; null when none."),
  calls_enabled: z
    .boolean()
    .optional()
    .describe('Whether the widget offers calls with people while someone who answers the inbox is available.'),
});
// Named: a component of the OpenAPI documents (shared/server/openapi-components.ts).
z.globalRegistry.add(Inbox, { id: 'Inbox' });
export type Inbox = z.infer<typeof Inbox>;

export const InboxList = z.object({ payload: z.array(Inbox) });

/** `POST …/inboxes/{id}/set_agent_bot`, as Chatwoot's: the bot's id, or null to disconnect. */
export const SetAgentBot = z.strictObject({ agent_bot: IdParam.nullable() });

export const SiteKeyCreate = z
  .strictObject({ environment: z.enum(['live', 'sandbox']), allowed_origins: Origins.default([]) })
  .refine((key) => key.environment === 'sandbox' || key.allowed_origins.length > 0, {
    message: 'a live site key works only from the origins listed: give at least one',
    path: ['allowed_origins'],
  })
  .refine((key) => key.environment === 'live' || key.allowed_origins.length === 0, {
    message: 'a sandbox site key works from any origin: list none',
    path: ['allowed_origins'],
  });
export const SiteKeyUpdate = z.strictObject({ allowed_origins: Origins.min(1) });

export const SiteKey = z.object({
  id: z.number().int(),
  environment: z.enum(['live', 'sandbox']),
  /** The key's first characters, to tell keys apart; the whole key is in the answer that made it only. */
  key_prefix: z.string(),
  key: z.string().optional(),
  allowed_origins: z.array(z.string()),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
// Named: a component of the OpenAPI documents (shared/server/openapi-components.ts).
z.globalRegistry.add(SiteKey, { id: 'SiteKey' });
export type SiteKey = z.infer<typeof SiteKey>;

/**
 * An API key of the account's own engine account (`service_test_…` sandbox, `service_live_…` live),
 * for the account's site server: the engine's whole `/v1` for this account (knowledge, actions,
 * customers…) and verified customers' sessions (`POST /v1/widget-sessions` on the BFF).
 */
export const ApiKeyCreate = z.strictObject({
  environment: z.enum(['sandbox', 'live']).describe('sandbox (service_test_…) or live (service_live_…).'),
});
export const ApiKeyParams = z.strictObject({ account_id: IdParam, id: IdParam });
export const ApiKey = z.object({
  id: z.number().int(),
  environment: z.enum(['sandbox', 'live']),
  prefix: z.string().describe("The key's first 17 characters, to tell keys apart."),
  key: z.string().optional().describe('The whole key: in the answer that made it only.'),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
// Named: a component of the OpenAPI documents (shared/server/openapi-components.ts).
z.globalRegistry.add(ApiKey, { id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKey>;

/** A person of an account, with their role there. */
export const Agent = Person.extend({ account_id: z.number().int(), role: Role }).meta({ id: 'Agent' });
export type Agent = z.infer<typeof Agent>;

export const InboxMembersChange = z.strictObject({ inbox_id: IdParam, user_ids: z.array(IdParam).max(500) });
export const InboxMembersParams = InboxParams;
