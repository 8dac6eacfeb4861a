import { newId, randomToken } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import {
  PRESENTATION_COLUMNS,
  toPresentation,
  type InboxPresentation,
  type PresentationRow,
} from './inbox-presentation.ts';

export type { Environment } from '../../shared/environment.ts';
import type { Environment } from '../../shared/environment.ts';

export interface SiteKey {
  key: string;
  inboxId: string;
  environment: Environment;
  allowedOrigins: string[];
}

export interface Inbox {
  id: string;
  name: string;
  greeting: string;
  color: string;
  locale: string;
  surveyEnabled: boolean;
  prechatEnabled: boolean;
  timezone: string;
  workingHoursEnabled: boolean;
  outOfOfficeMessage: string;
  presentation: InboxPresentation;
}

export interface InboxSettings {
  name: string;
  greeting?: string;
  color?: string;
  locale?: string;
  surveyEnabled?: boolean;
  prechatEnabled?: boolean;
  /** New messages a minute from one client address to the AI; unset: the BFF's default (message-limits.ts). */
  aiMessagesPerAddressPerMinute?: number;
}

const SITE_KEY_PATTERN = /^pk_(test|live)_[0-9A-Za-z]{16,64}$/;

export function isSiteKeyShape(key: string): boolean {
  return SITE_KEY_PATTERN.test(key);
}

export function generateSiteKey(environment: Environment): string {
  return `pk_${environment === 'live' ? 'live' : 'test'}_${randomToken(24)}`;
}

export async function createInbox(db: Queryable, settings: InboxSettings): Promise<Inbox> {
  const id = newId('inbox');
  await db.query(
    `INSERT INTO inboxes (id, name, greeting, color, locale, survey_enabled, prechat_enabled, ai_messages_per_address_per_minute)
     VALUES ($1, $2, $3, COALESCE($4, '#1f3a5f'), COALESCE($5, 'en'), COALESCE($6, true), COALESCE($7, false), $8)`,
    [
      id,
      settings.name,
      settings.greeting ?? '',
      settings.color ?? null,
      settings.locale ?? null,
      settings.surveyEnabled ?? null,
      settings.prechatEnabled ?? null,
      settings.aiMessagesPerAddressPerMinute ?? null,
    ],
  );
  return (await findInbox(db, id))!;
}

export async function findInbox(db: Queryable, id: string): Promise<Inbox | undefined> {
  const [row] = await db.query<
    {
      id: string;
      name: string;
      greeting: string;
      color: string;
      locale: string;
      survey_enabled: boolean;
      prechat_enabled: boolean;
      timezone: string;
      working_hours_enabled: boolean;
      out_of_office_message: string;
    } & PresentationRow
  >(
    `SELECT id, name, greeting, color, locale, survey_enabled, prechat_enabled, timezone, working_hours_enabled, out_of_office_message, ${PRESENTATION_COLUMNS} FROM inboxes WHERE id = $1`,
    [id],
  );
  return (
    row && {
      id: row.id,
      name: row.name,
      greeting: row.greeting,
      color: row.color,
      locale: row.locale,
      surveyEnabled: row.survey_enabled,
      prechatEnabled: row.prechat_enabled,
      timezone: row.timezone,
      workingHoursEnabled: row.working_hours_enabled,
      outOfOfficeMessage: row.out_of_office_message,
      presentation: toPresentation(row),
    }
  );
}

/**
 * The inbox's own number of new messages a minute from one client address, or null for the BFF's
 * default. Read only for an address already past the default (message-limits.ts).
 */
export async function aiMessagesPerAddressOf(db: Queryable, inboxId: string): Promise<number | null> {
  const [row] = await db.query<{ per_minute: number | null }>(
    'SELECT ai_messages_per_address_per_minute AS per_minute FROM inboxes WHERE id = $1',
    [inboxId],
  );
  return row?.per_minute ?? null;
}

/** Every origin listed on the inbox's live site keys: where its live sessions may be used from. */
export async function liveOriginsOf(db: Queryable, inboxId: string): Promise<string[]> {
  const rows = await db.query<{ origin: string }>(
    "SELECT DISTINCT unnest(allowed_origins) AS origin FROM site_keys WHERE inbox_id = $1 AND environment = 'live' AND revoked_at IS NULL",
    [inboxId],
  );
  return rows.map((row) => row.origin);
}

/** Adds a site key to an inbox. `key` lets a demo or test choose a known key. */
export async function addSiteKey(
  db: Queryable,
  inboxId: string,
  environment: Environment,
  allowedOrigins: string[] = [],
  key = generateSiteKey(environment),
): Promise<SiteKey> {
  const expectedPrefix = environment === 'live' ? 'pk_live_' : 'pk_test_';
  if (!isSiteKeyShape(key) || !key.startsWith(expectedPrefix)) {
    throw new TypeError(
      `a ${environment} site key must look like ${expectedPrefix} followed by 16-64 letters or digits`,
    );
  }
  await db.query('INSERT INTO site_keys (key, inbox_id, environment, allowed_origins) VALUES ($1, $2, $3, $4)', [
    key,
    inboxId,
    environment,
    allowedOrigins,
  ]);
  return { key, inboxId, environment, allowedOrigins };
}

export async function findSiteKey(db: Queryable, key: string): Promise<SiteKey | undefined> {
  if (!isSiteKeyShape(key)) return undefined;
  const [row] = await db.query<{ key: string; inbox_id: string; environment: Environment; allowed_origins: string[] }>(
    'SELECT key, inbox_id, environment, allowed_origins FROM site_keys WHERE key = $1 AND revoked_at IS NULL',
    [key],
  );
  return (
    row && { key: row.key, inboxId: row.inbox_id, environment: row.environment, allowedOrigins: row.allowed_origins }
  );
}

export async function readSetting(db: Queryable, name: string): Promise<string | undefined> {
  const [row] = await db.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name]);
  return row?.value;
}

export async function writeSetting(db: Queryable, name: string, value: string): Promise<void> {
  await db.query(
    'INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value',
    [name, value],
  );
}

/** An inbox as the helpdesk Client API sees it. */
export interface ClientInbox {
  id: string;
  displayId: number;
  identifier: string;
  name: string;
  greeting: string;
  timezone: string;
  workingHoursEnabled: boolean;
  greetingEnabled: boolean;
  surveyEnabled: boolean;
  hmacToken: string | null;
  hmacMandatory: boolean;
  lockToSingleConversation: boolean;
  clientApiOrigins: string[];
  presentation: InboxPresentation;
}

export async function findInboxByIdentifier(db: Queryable, identifier: string): Promise<ClientInbox | undefined> {
  if (!/^[\w-]{1,100}$/.test(identifier)) return undefined;
  const [row] = await db.query<
    {
      id: string;
      display_id: number;
      identifier: string;
      name: string;
      greeting: string;
      timezone: string;
      working_hours_enabled: boolean;
      greeting_enabled: boolean;
      survey_enabled: boolean;
      hmac_token: string | null;
      hmac_mandatory: boolean;
      lock_to_single_conversation: boolean;
      client_api_origins: string[];
    } & PresentationRow
  >(
    `SELECT id, display_id, identifier, name, greeting, timezone, working_hours_enabled, greeting_enabled, survey_enabled, hmac_token, hmac_mandatory, lock_to_single_conversation, client_api_origins, ${PRESENTATION_COLUMNS}
     FROM inboxes WHERE identifier = $1`,
    [identifier],
  );
  return (
    row && {
      id: row.id,
      displayId: row.display_id,
      identifier: row.identifier,
      name: row.name,
      greeting: row.greeting,
      timezone: row.timezone,
      workingHoursEnabled: row.working_hours_enabled,
      greetingEnabled: row.greeting_enabled,
      surveyEnabled: row.survey_enabled,
      hmacToken: row.hmac_token,
      hmacMandatory: row.hmac_mandatory,
      lockToSingleConversation: row.lock_to_single_conversation,
      clientApiOrigins: row.client_api_origins,
      presentation: toPresentation(row),
    }
  );
}

export interface ClientApiSettings {
  /** At least 128 random bits unless given (a demo or test may choose it). */
  identifier?: string;
  hmacToken?: string;
  hmacMandatory?: boolean;
  lockToSingleConversation?: boolean;
  allowedOrigins?: string[];
}

/** Opens an inbox to the Client API: gives it an identifier and an HMAC token. */
export async function enableClientApi(
  db: Queryable,
  inboxId: string,
  settings: ClientApiSettings = {},
): Promise<{ identifier: string; hmacToken: string }> {
  const identifier = settings.identifier ?? randomToken(24);
  const hmacToken = settings.hmacToken ?? randomToken(32);
  await db.query(
    `UPDATE inboxes SET identifier = $2, hmac_token = $3, hmac_mandatory = COALESCE($4, hmac_mandatory),
       lock_to_single_conversation = COALESCE($5, lock_to_single_conversation), client_api_origins = COALESCE($6, client_api_origins)
     WHERE id = $1`,
    [
      inboxId,
      identifier,
      hmacToken,
      settings.hmacMandatory ?? null,
      settings.lockToSingleConversation ?? null,
      settings.allowedOrigins ?? null,
    ],
  );
  return { identifier, hmacToken };
}

/** The inbox made first, or undefined when there is none: a BFF's default for sessions whose token names no inbox. */
export async function oldestInboxId(db: Queryable): Promise<string | undefined> {
  const [row] = await db.query<{ id: string }>('SELECT id FROM inboxes ORDER BY created_at, display_id LIMIT 1');
  return row?.id;
}
