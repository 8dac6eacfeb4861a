import { z } from 'zod';
import { Attributes, Email, IdParam, Locale, Name, OutgoingUrl, Role } from './fields.ts';

/**
 * The Platform API's (`/platform/api/v1`) and the people's records of the Application API
 * (`/api/v1`): accounts, users, agent bots, the audit log and sign-in sessions.
 */

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
  /** Chatwoot's account settings (e.g. `auto_resolve_duration`): merged key by key into what is kept; only as JSON. */
  settings: Attributes.optional(),
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
  /** Chatwoot's account settings, as the account's administrators last set them (`{}` until then). */
  settings: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
// Named: a component of the OpenAPI documents (shared/server/openapi-components.ts).
z.globalRegistry.add(PlatformAccount, { id: 'PlatformAccount' });
export type PlatformAccount = z.infer<typeof PlatformAccount>;

/** The account as a person of it sees it: with their role. */
export const AccountView = PlatformAccount.extend({ role: Role.nullable() }).meta({ id: 'Account' });
export type AccountView = z.infer<typeof AccountView>;

export const AccountUser = z
  .object({ account_id: z.number().int(), user_id: z.number().int(), role: Role })
  .meta({ id: 'AccountUser' });
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
  /** With the access token (or session): the person's stream at /cable (RoomChannel with account_id and user_id). */
  pubsub_token: z.string().optional(),
});
// Named: a component of the OpenAPI documents (shared/server/openapi-components.ts).
z.globalRegistry.add(User, { id: 'User' });
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
// Named: a component of the OpenAPI documents (shared/server/openapi-components.ts).
z.globalRegistry.add(AgentBot, { id: 'AgentBot' });
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
// Named: a component of the OpenAPI documents (shared/server/openapi-components.ts).
z.globalRegistry.add(AuditLog, { id: 'AuditLog' });

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
export type Session = z.infer<typeof Session>;
