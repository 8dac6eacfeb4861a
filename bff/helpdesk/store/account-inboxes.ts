import { newId, randomToken } from '../../../shared/index.ts';
import type { Queryable, SecretBox } from '../../../shared/server/index.ts';
import {
  PRESENTATION_COLUMNS,
  toPresentation,
  type InboxPresentation,
  type PresentationRow,
  type WorkingDay,
} from '../../store/inbox-presentation.ts';
import { generateSiteKey, type Environment } from '../../store/inboxes.ts';

/** An inbox as its account's administrators manage it. */
export interface InboxRecord {
  id: string;
  displayId: number;
  accountId: number;
  name: string;
  greeting: string;
  greetingEnabled: boolean;
  color: string;
  locale: string;
  surveyEnabled: boolean;
  prechatEnabled: boolean;
  lockToSingleConversation: boolean;
  workingHoursEnabled: boolean;
  timezone: string;
  outOfOfficeMessage: string;
  hmacMandatory: boolean;
  identifier: string | null;
  clientApiOrigins: string[];
  /** The agent bot connected to the inbox, if any. */
  agentBotId: number | null;
  /** New messages a minute from one client address to the AI; null: the BFF's default (message-limits.ts). */
  aiMessagesPerAddressPerMinute: number | null;
  createdAt: Date;
  presentation: InboxPresentation;
}

interface InboxRow extends PresentationRow {
  id: string;
  display_id: number;
  account_id: number;
  name: string;
  greeting: string;
  greeting_enabled: boolean;
  color: string;
  locale: string;
  survey_enabled: boolean;
  prechat_enabled: boolean;
  lock_to_single_conversation: boolean;
  working_hours_enabled: boolean;
  timezone: string;
  out_of_office_message: string;
  hmac_mandatory: boolean;
  identifier: string | null;
  client_api_origins: string[];
  agent_bot_id: number | null;
  ai_messages_per_address_per_minute: number | null;
  created_at: Date;
}

const toInbox = (row: InboxRow): InboxRecord => ({
  id: row.id,
  displayId: row.display_id,
  accountId: row.account_id,
  name: row.name,
  greeting: row.greeting,
  greetingEnabled: row.greeting_enabled,
  color: row.color,
  locale: row.locale,
  surveyEnabled: row.survey_enabled,
  prechatEnabled: row.prechat_enabled,
  lockToSingleConversation: row.lock_to_single_conversation,
  workingHoursEnabled: row.working_hours_enabled,
  timezone: row.timezone,
  outOfOfficeMessage: row.out_of_office_message,
  hmacMandatory: row.hmac_mandatory,
  identifier: row.identifier,
  clientApiOrigins: row.client_api_origins,
  agentBotId: row.agent_bot_id,
  aiMessagesPerAddressPerMinute: row.ai_messages_per_address_per_minute,
  createdAt: row.created_at,
  presentation: toPresentation(row),
});

const COLUMNS =
  'id, display_id, account_id, name, greeting, greeting_enabled, color, locale, survey_enabled, prechat_enabled, lock_to_single_conversation, working_hours_enabled, timezone, out_of_office_message, hmac_mandatory, identifier, client_api_origins, agent_bot_id, ai_messages_per_address_per_minute, created_at, ' +
  PRESENTATION_COLUMNS;

export interface InboxChanges {
  name?: string | undefined;
  greeting?: string | undefined;
  greetingEnabled?: boolean | undefined;
  color?: string | undefined;
  locale?: string | undefined;
  surveyEnabled?: boolean | undefined;
  prechatEnabled?: boolean | undefined;
  lockToSingleConversation?: boolean | undefined;
  workingHoursEnabled?: boolean | undefined;
  timezone?: string | undefined;
  outOfOfficeMessage?: string | undefined;
  hmacMandatory?: boolean | undefined;
  clientApiOrigins?: string[] | undefined;
  avatarUrl?: string | undefined;
  welcomeTitle?: string | undefined;
  welcomeTagline?: string | undefined;
  replyTime?: string | null | undefined;
  suggestedQuestions?: string[] | undefined;
  greetingTranslations?: Partial<Record<string, string>> | undefined;
  welcomeTitleTranslations?: Partial<Record<string, string>> | undefined;
  welcomeTaglineTranslations?: Partial<Record<string, string>> | undefined;
  suggestedQuestionsTranslations?: Partial<Record<string, string[]>> | undefined;
  email?: string | undefined;
  workingHours?: WorkingDay[] | undefined;
  /** null: back to the BFF's default. */
  aiMessagesPerAddressPerMinute?: number | null | undefined;
}

const CHANGE_COLUMNS: [keyof InboxChanges, string][] = [
  ['name', 'name'],
  ['greeting', 'greeting'],
  ['greetingEnabled', 'greeting_enabled'],
  ['color', 'color'],
  ['locale', 'locale'],
  ['surveyEnabled', 'survey_enabled'],
  ['prechatEnabled', 'prechat_enabled'],
  ['lockToSingleConversation', 'lock_to_single_conversation'],
  ['workingHoursEnabled', 'working_hours_enabled'],
  ['timezone', 'timezone'],
  ['outOfOfficeMessage', 'out_of_office_message'],
  ['hmacMandatory', 'hmac_mandatory'],
  ['clientApiOrigins', 'client_api_origins'],
  ['avatarUrl', 'avatar_url'],
  ['welcomeTitle', 'welcome_title'],
  ['welcomeTagline', 'welcome_tagline'],
  ['replyTime', 'reply_time'],
  ['suggestedQuestions', 'suggested_questions'],
  ['greetingTranslations', 'greeting_translations'],
  ['welcomeTitleTranslations', 'welcome_title_translations'],
  ['welcomeTaglineTranslations', 'welcome_tagline_translations'],
  ['suggestedQuestionsTranslations', 'suggested_questions_translations'],
  ['email', 'email'],
  ['workingHours', 'working_hours'],
  ['aiMessagesPerAddressPerMinute', 'ai_messages_per_address_per_minute'],
];

/** jsonb columns get their value as JSON text: pg would send a JS array as a PostgreSQL array. */
const JSON_COLUMNS = new Set([
  'greeting_translations',
  'welcome_title_translations',
  'welcome_tagline_translations',
  'suggested_questions_translations',
  'working_hours',
]);

/**
 * Makes an inbox of the account, open to the Client API (a new identifier and HMAC key, kept sealed
 * in `box`), with the given settings. Gives the inbox and its HMAC key, which is shown once.
 */
export async function insertAccountInbox(
  db: Queryable,
  accountId: number,
  fields: InboxChanges & { name: string },
  box: SecretBox,
): Promise<{ inbox: InboxRecord; hmacToken: string }> {
  const id = newId('inbox');
  const hmacToken = randomToken(32);
  await db.query('INSERT INTO inboxes (id, account_id, name, identifier, hmac_token) VALUES ($1, $2, $3, $4, $5)', [
    id,
    accountId,
    fields.name,
    randomToken(24),
    box.seal(hmacToken),
  ]);
  return { inbox: (await updateAccountInbox(db, accountId, id, fields))!, hmacToken };
}

export async function listAccountInboxes(db: Queryable, accountId: number): Promise<InboxRecord[]> {
  return (
    await db.query<InboxRow>(`SELECT ${COLUMNS} FROM inboxes WHERE account_id = $1 ORDER BY display_id`, [accountId])
  ).map(toInbox);
}

/** The account's inbox by its number; undefined for another account's. */
export async function findAccountInbox(
  db: Queryable,
  accountId: number,
  displayId: number,
): Promise<InboxRecord | undefined> {
  const [row] = await db.query<InboxRow>(`SELECT ${COLUMNS} FROM inboxes WHERE account_id = $1 AND display_id = $2`, [
    accountId,
    displayId,
  ]);
  return row && toInbox(row);
}

export async function updateAccountInbox(
  db: Queryable,
  accountId: number,
  id: string,
  changes: InboxChanges,
): Promise<InboxRecord | undefined> {
  const sets: string[] = [];
  const params: unknown[] = [id, accountId];
  for (const [key, column] of CHANGE_COLUMNS) {
    if (changes[key] === undefined) continue;
    const json = JSON_COLUMNS.has(column);
    params.push(json ? JSON.stringify(changes[key]) : changes[key]);
    sets.push(`${column} = $${params.length}${json ? '::jsonb' : ''}`);
  }
  const [row] = await db.query<InboxRow>(
    `UPDATE inboxes SET ${sets.length ? sets.join(', ') : 'name = name'} WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
    params,
  );
  return row && toInbox(row);
}

/** Deletes an inbox with its keys, contacts, conversations, messages and surveys. */
export async function deleteAccountInbox(db: Queryable, id: string): Promise<void> {
  const conversations = 'SELECT id FROM conversations WHERE inbox_id = $1';
  await db.query(`DELETE FROM surveys WHERE conversation_id IN (${conversations})`, [id]);
  await db.query(`DELETE FROM messages WHERE conversation_id IN (${conversations})`, [id]);
  await db.query('DELETE FROM conversations WHERE inbox_id = $1', [id]);
  await db.query('DELETE FROM contacts WHERE inbox_id = $1', [id]);
  await db.query('DELETE FROM visitor_traits WHERE inbox_id = $1', [id]);
  await db.query('DELETE FROM site_keys WHERE inbox_id = $1', [id]);
  await db.query('DELETE FROM inboxes WHERE id = $1', [id]);
}

/** Connects an agent bot to the inbox (or none). */
export async function setInboxAgentBot(db: Queryable, id: string, agentBotId: number | null): Promise<void> {
  await db.query('UPDATE inboxes SET agent_bot_id = $2 WHERE id = $1', [id, agentBotId]);
}

/** A new HMAC key for identity validation (kept sealed in `box`); the old one stops working at once. */
export async function rotateHmacToken(db: Queryable, id: string, box: SecretBox): Promise<string> {
  const token = randomToken(32);
  await db.query('UPDATE inboxes SET hmac_token = $2 WHERE id = $1', [id, box.seal(token)]);
  return token;
}

export interface SiteKeyRecord {
  id: number;
  key: string;
  environment: Environment;
  allowedOrigins: string[];
  createdAt: Date;
  revokedAt: Date | null;
}

interface SiteKeyRow {
  id: number;
  key: string;
  environment: Environment;
  allowed_origins: string[];
  created_at: Date;
  revoked_at: Date | null;
}

const toSiteKey = (row: SiteKeyRow): SiteKeyRecord => ({
  id: row.id,
  key: row.key,
  environment: row.environment,
  allowedOrigins: row.allowed_origins,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

export async function createInboxSiteKey(
  db: Queryable,
  inboxId: string,
  environment: Environment,
  allowedOrigins: string[],
): Promise<SiteKeyRecord> {
  const [row] = await db.query<SiteKeyRow>(
    'INSERT INTO site_keys (key, inbox_id, environment, allowed_origins) VALUES ($1, $2, $3, $4) RETURNING id, key, environment, allowed_origins, created_at, revoked_at',
    [generateSiteKey(environment), inboxId, environment, allowedOrigins],
  );
  return toSiteKey(row!);
}

export async function listInboxSiteKeys(db: Queryable, inboxId: string): Promise<SiteKeyRecord[]> {
  return (
    await db.query<SiteKeyRow>(
      'SELECT id, key, environment, allowed_origins, created_at, revoked_at FROM site_keys WHERE inbox_id = $1 ORDER BY id',
      [inboxId],
    )
  ).map(toSiteKey);
}

export async function findInboxSiteKey(db: Queryable, inboxId: string, id: number): Promise<SiteKeyRecord | undefined> {
  const [row] = await db.query<SiteKeyRow>(
    'SELECT id, key, environment, allowed_origins, created_at, revoked_at FROM site_keys WHERE inbox_id = $1 AND id = $2',
    [inboxId, id],
  );
  return row && toSiteKey(row);
}

export async function setSiteKeyOrigins(db: Queryable, id: number, allowedOrigins: string[]): Promise<void> {
  await db.query('UPDATE site_keys SET allowed_origins = $2 WHERE id = $1', [id, allowedOrigins]);
}

/** Revokes a site key: it opens no new session from now on. */
export async function revokeSiteKey(db: Queryable, id: number, now: Date): Promise<void> {
  await db.query('UPDATE site_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1', [id, now]);
}

export async function inboxMembers(db: Queryable, inboxId: string): Promise<number[]> {
  return (
    await db.query<{ user_id: number }>('SELECT user_id FROM inbox_members WHERE inbox_id = $1 ORDER BY user_id', [
      inboxId,
    ])
  ).map((row) => row.user_id);
}

/** Sets the people who answer an inbox to exactly `userIds` (people of its account). */
export async function setInboxMembers(db: Queryable, inboxId: string, userIds: readonly number[]): Promise<void> {
  await db.query('DELETE FROM inbox_members WHERE inbox_id = $1', [inboxId]);
  if (userIds.length)
    await db.query('INSERT INTO inbox_members (inbox_id, user_id) SELECT $1, unnest($2::int[])', [inboxId, userIds]);
}
