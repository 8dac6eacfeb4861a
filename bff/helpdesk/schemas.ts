import { z } from 'zod';
import { ReplyTime } from '../../shared/index.ts';
import { Origin } from '../../shared/server/index.ts';
import { PublicAttachment } from '../attachments/shapes.ts';
import { AI_MESSAGES_PER_ADDRESS_RANGE } from '../widget/message-limits.ts';

/**
 * Requests and answers of the helpdesk Platform API (`/platform/api/v1`) and Application API
 * (`/api/v1`), Chatwoot-shaped (shared/reference/chatwoot-application-api.md). Ids are integers.
 */

export const Role = z.enum(['administrator', 'agent']);

/** An integer id in a path. */
export const IdParam = z.coerce.number().int().min(1).max(2_147_483_647);
export const AccountParams = z.strictObject({ account_id: IdParam });
export const IdParams = z.strictObject({ id: IdParam });
export const AccountBotParams = z.strictObject({ account_id: IdParam, id: IdParam });

const Name = z.string().trim().min(1).max(255);
const Locale = z.string().regex(/^[a-z]{2}(_[A-Z]{2})?$/, 'a locale such as en or pt_BR');
const Attributes = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= 16_384, 'at most 16 KB');
const Email = z.email().max(320);
const OutgoingUrl = z.url({ protocol: /^https?$/ }).max(2000);

export const PlatformAccountCreate = z.strictObject({
  name: Name,
  locale: Locale.optional(),
  domain: z.string().trim().max(255).nullable().optional(),
  support_email: Email.nullable().optional(),
  status: z.enum(['active', 'suspended']).optional(),
  custom_attributes: Attributes.optional(),
  /** Feature switches, e.g. `{"audit_logs": false}`. */
  features: z.record(z.string(), z.boolean()).optional(),
});
export const PlatformAccountUpdate = PlatformAccountCreate.partial();

export const AccountUserCreate = z.strictObject({ user_id: IdParam, role: Role });
export const AccountUserDelete = z.strictObject({ user_id: IdParam });

export const UserCreate = z.strictObject({
  name: Name,
  email: Email,
  display_name: Name.optional(),
  /** At least 8 characters; without one the person signs in by one-time links only. */
  password: z.string().min(8).max(200).optional(),
  custom_attributes: Attributes.optional(),
});
export const UserUpdate = UserCreate.partial();

export const AgentBotCreate = z.strictObject({
  name: Name,
  description: z.string().max(2000).optional(),
  outgoing_url: OutgoingUrl.nullable().optional(),
});
export const AgentBotUpdate = AgentBotCreate.partial();

/** `PATCH /api/v1/accounts/{id}`: as JSON, or as a form (then every field is text). */
export const AccountUpdate = z.strictObject({
  name: Name.optional(),
  locale: Locale.optional(),
  domain: z.string().trim().max(255).optional(),
  support_email: Email.optional(),
  custom_attributes: Attributes.optional(),
});

export const AuditLogQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  q: z.string().max(255).optional(),
  /** `types[]=Inbox&types[]=AgentBot`, `types=Inbox,AgentBot` or `types=Inbox`. */
  types: z.union([z.string().max(1000), z.array(z.string().max(100)).max(20)]).optional(),
  'types[]': z.union([z.string().max(100), z.array(z.string().max(100)).max(20)]).optional(),
  since: z.coerce.number().int().min(0).optional(),
  until: z.coerce.number().int().min(0).optional(),
  sort: z.enum(['asc', 'desc']).default('desc'),
});

export const PlatformAccount = z.object({
  id: z.number().int(),
  name: z.string(),
  locale: z.string(),
  domain: z.string().nullable(),
  support_email: z.string().nullable(),
  status: z.enum(['active', 'suspended']),
  custom_attributes: z.record(z.string(), z.unknown()),
  features: z.record(z.string(), z.boolean()),
  created_at: z.string(),
});
export type PlatformAccount = z.infer<typeof PlatformAccount>;

/** The account as a person of it sees it: with their role. */
export const AccountView = PlatformAccount.extend({ role: Role.nullable() });
export type AccountView = z.infer<typeof AccountView>;

export const AccountUser = z.object({ account_id: z.number().int(), user_id: z.number().int(), role: Role });
export type AccountUser = z.infer<typeof AccountUser>;

/** A person, as Chatwoot shows users and agents. */
export const Person = z.object({
  id: z.number().int(),
  uid: z.string(),
  name: z.string(),
  available_name: z.string(),
  display_name: z.string().nullable(),
  email: z.string(),
  confirmed: z.boolean(),
  custom_attributes: z.record(z.string(), z.unknown()),
});
export type Person = z.infer<typeof Person>;

export const User = Person.extend({
  accounts: z.array(z.object({ id: z.number().int(), name: z.string(), role: Role })),
  /** Only in the answer that made the person (shown once; kept hashed). */
  access_token: z.string().optional(),
});
export type User = z.infer<typeof User>;

export const AgentBot = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  account_id: z.number().int().nullable(),
  outgoing_url: z.string().nullable(),
  bot_type: z.literal('webhook'),
  /** Only in the answer that made the bot (shown once; kept hashed). */
  access_token: z.string().optional(),
  /** Only in the answer that made the bot: what is posted to its outgoing_url is signed with it (X-Desk-Signature). */
  secret: z.string().optional(),
});
export type AgentBot = z.infer<typeof AgentBot>;

export const SignInLink = z.object({ url: z.string() });

export const AuditLog = z.object({
  id: z.number().int(),
  auditable_id: z.string(),
  auditable_type: z.string(),
  action: z.enum(['create', 'update', 'destroy']),
  audited_changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])),
  user_id: z.number().int().nullable(),
  user_type: z.enum(['User', 'AgentBot', 'PlatformApp']),
  username: z.string(),
  associated_id: z.number().int(),
  associated_type: z.literal('Account'),
  remote_address: z.string().nullable(),
  created_at: z.number().int(),
});

export const AuditLogPage = z.object({
  per_page: z.number().int(),
  total_entries: z.number().int(),
  current_page: z.number().int(),
  audit_logs: z.array(AuditLog),
});

export const SessionCreate = z.union([
  z.strictObject({ sign_in_token: z.string().min(16).max(100) }),
  z.strictObject({ email: Email, password: z.string().min(1).max(200) }),
]);

export const Session = z.object({ access_token: z.string(), expires_at: z.string(), user: User });

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
  welcome_title: z.string().trim().max(200).optional(),
  welcome_tagline: z.string().trim().max(500).optional(),
  /** How soon people reply, as the widget's header says it. */
  reply_time: ReplyTime.nullable().optional(),
  /** At most 3 questions the widget offers as buttons before the first message. */
  suggested_questions: z.array(z.string().trim().min(1).max(120)).max(3).optional(),
  /** The greeting in the widget's other languages, by language: the widget shows the one it speaks. */
  greeting_translations: z.partialRecord(WidgetLocale, z.string().trim().min(1).max(2000)).optional(),
  /** A public address that reaches the shop another way (shown when chat cannot be used); '' removes it. */
  email: z.union([z.literal(''), Email]).optional(),
  /** Seven days of Chatwoot's weekly schedule, in the inbox's timezone; used while working_hours_enabled. */
  working_hours: WorkingHours.optional(),
  /** Raises the per-address limit of messages to the AI (issue 26); null: the default. */
  ai_messages_per_address_per_minute: AiMessagesPerAddress.optional(),
});
export const InboxUpdate = InboxCreate.partial();
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
});
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
export type ApiKey = z.infer<typeof ApiKey>;

/** A person of an account, with their role there. */
export const Agent = Person.extend({ account_id: z.number().int(), role: Role });
export type Agent = z.infer<typeof Agent>;

export const InboxMembersChange = z.strictObject({ inbox_id: IdParam, user_ids: z.array(IdParam).max(500) });
export const InboxMembersParams = InboxParams;

// Canned responses (Chatwoot's shape), inserted in replies by their short code.
export const CannedResponseParams = z.strictObject({ account_id: IdParam, id: IdParam });
const ShortCode = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\w-]+$/, 'letters, digits, _ or - (it follows a / in the console)');
export const CannedResponseCreate = z.strictObject({
  short_code: ShortCode,
  content: z.string().trim().min(1).max(10_000),
});
export const CannedResponseUpdate = CannedResponseCreate.partial();
export const CannedResponseQuery = z.strictObject({ search: z.string().max(100).optional() });
export const CannedResponse = z.object({
  id: z.number().int(),
  account_id: z.number().int(),
  short_code: z.string(),
  content: z.string(),
});
export type CannedResponse = z.infer<typeof CannedResponse>;

// Conversations for people (Application API, Chatwoot-shaped).
export const ConversationParams = z.strictObject({ account_id: IdParam, conversation_id: IdParam });
/**
 * A conversation's status as people see it (Chatwoot's): `pending` while the AI answers it, `open`
 * once people answer it (handed over), `snoozed` while a person's snooze lasts, `resolved`.
 */
export const DeskStatus = z.enum(['open', 'pending', 'snoozed', 'resolved']);
export type DeskStatus = z.infer<typeof DeskStatus>;
export const ConversationListQuery = z.strictObject({
  /** `all`: every conversation, those people answer first. */
  status: z.enum([...DeskStatus.options, 'all']).default('open'),
  assignee_type: z.enum(['me', 'unassigned', 'all']).default('all'),
  inbox_id: IdParam.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export const DeskMessageCreate = z.strictObject({
  content: z.string().trim().min(1).max(150_000),
  /** A note for the people answering, never shown to the customer. */
  private: z.boolean().default(false),
  /** Makes a retry safe: the same echo_id again gives the same message. */
  echo_id: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\w.:-]+$/, 'letters, digits, _ . : -')
    .optional(),
});
export const AssignmentCreate = z.strictObject({ assignee_id: IdParam.nullable() });
/** Unix seconds up to the year 9999. */
const UnixTime = z.number().int().min(0).max(253_402_300_799);
/**
 * `POST …/toggle_status`, as Chatwoot's: the status wanted (without one: resolved, or open when it is
 * resolved), and for `snoozed` until when (Unix seconds; absent or null: until the customer writes).
 */
export const StatusChange = z
  .strictObject({ status: DeskStatus.optional(), snoozed_until: UnixTime.nullable().optional() })
  .refine((change) => change.snoozed_until === undefined || change.status === 'snoozed', {
    message: 'snoozed_until goes with status snoozed only',
    path: ['snoozed_until'],
  });

export const DeskMessage = z.object({
  id: z.number().int(),
  content: z.string(),
  message_type: z
    .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)])
    .describe('0 incoming, 1 outgoing, 2 activity, 3 template'),
  content_type: z.string(),
  private: z.boolean(),
  created_at: z.number().int(),
  conversation_id: z.number().int(),
  /** Who wrote it; null for notices. The AI's own replies are the agent bot `AI assistant` with id null. */
  sender: z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('contact'), name: z.string() }),
      z.object({
        type: z.literal('user'),
        /** null when the person is not known here (answered elsewhere, or since removed). */
        id: z.number().int().nullable(),
        name: z.string(),
        available_name: z.string().optional(),
      }),
      z.object({ type: z.literal('agent_bot'), id: z.number().int().nullable(), name: z.string() }),
    ])
    .nullable(),
  /** A customer's files (Chatwoot's shape), only on messages with some; `data_url` takes the same token. */
  attachments: z.array(PublicAttachment).optional(),
});
export type DeskMessage = z.infer<typeof DeskMessage>;

export const DeskConversation = z.object({
  id: z.number().int(),
  uuid: z.string(),
  account_id: z.number().int(),
  inbox_id: z.number().int(),
  status: DeskStatus,
  /** Who answers now: the AI, or people (after a handover); a snoozed conversation keeps its own. */
  handled_by: z.enum(['ai', 'human']),
  /** When a snooze ends (Unix seconds); null when not snoozed, or snoozed until the customer writes. */
  snoozed_until: z.number().int().nullable(),
  assignee_id: z.number().int().nullable(),
  contact: z.object({
    name: z.string().nullable(),
    email: z.string().nullable(),
    /** The customer's reference (`vis_…` for a visitor, the site's own id for a verified customer, `ctc_…` for a Client API contact). */
    customer_ref: z.string(),
    /** A Client API contact's identifier and custom attributes. */
    identifier: z.string().nullable(),
    custom_attributes: z.record(z.string(), z.unknown()),
  }),
  /** The page the customer was on when the conversation started. */
  page_url: z.string().nullable(),
  /** The customer's messages since people last read it (POST …/update_last_seen). */
  unread_count: z.number().int(),
  /** When people last read it (Unix seconds). */
  agent_last_seen_at: z.number().int().nullable(),
  /** The last message the customer has read. */
  contact_last_read_id: z.number().int(),
  last_activity_at: z.number().int(),
  created_at: z.number().int(),
});
export type DeskConversation = z.infer<typeof DeskConversation>;

export const DeskConversationList = z.object({
  data: z.object({
    meta: z.object({ mine_count: z.number().int(), unassigned_count: z.number().int(), all_count: z.number().int() }),
    payload: z.array(DeskConversation),
  }),
});
