import { randomToken } from '../../../shared/index.ts';
import type { Queryable, SecretBox } from '../../../shared/server/index.ts';

/** A contact of an inbox, as the Client API knows it. */
export interface ContactRecord {
  id: number;
  /** The person this contact belongs to: the first contact matched by identifier, email or phone, else itself. */
  personId: number;
  inboxId: string;
  sourceId: string;
  pubsubToken: string;
  identifier: string | null;
  name: string;
  email: string | null;
  phoneNumber: string | null;
  customAttributes: Record<string, unknown>;
  hmacVerified: boolean;
  createdAt: Date;
  updatedAt: Date;
}

interface ContactRow {
  id: number;
  person_id: number | null;
  inbox_id: string;
  /** Sealed; null for a widget customer's contact, which no one is given (migration 042). */
  source_id: string | null;
  pubsub_token: string | null;
  identifier: string | null;
  name: string;
  email: string | null;
  phone_number: string | null;
  custom_attributes: Record<string, unknown>;
  hmac_verified: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'id, person_id, inbox_id, source_id, pubsub_token, identifier, name, email, phone_number, custom_attributes, hmac_verified, created_at, updated_at';

const toContact = (box: SecretBox, row: ContactRow): ContactRecord => ({
  id: row.id,
  personId: row.person_id ?? row.id,
  inboxId: row.inbox_id,
  sourceId: row.source_id === null ? '' : box.open(row.source_id),
  pubsubToken: row.pubsub_token === null ? '' : box.open(row.pubsub_token),
  identifier: row.identifier,
  name: row.name,
  email: row.email,
  phoneNumber: row.phone_number,
  customAttributes: row.custom_attributes,
  hmacVerified: row.hmac_verified,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The conversation owner a contact maps to: conversations of the widget and of the Client API are one kind. */
export const contactCustomerRef = (contact: Pick<ContactRecord, 'id'>): string => `ctc_${contact.id}`;

// The capabilities are found by their keyed hash under any key of the box (issue 33: the database
// holds them only hashed and sealed), so a contact hashed before a key rotation is found too.
export async function findContactBySource(
  db: Queryable,
  box: SecretBox,
  inboxId: string,
  sourceId: string,
): Promise<ContactRecord | undefined> {
  const [row] = await db.query<ContactRow>(
    `SELECT ${COLUMNS} FROM contacts WHERE inbox_id = $1 AND source_id_hash = ANY($2::text[])`,
    [inboxId, box.lookupHashes(sourceId)],
  );
  return row && toContact(box, row);
}

export async function findContactByPubsubToken(
  db: Queryable,
  box: SecretBox,
  token: string,
): Promise<ContactRecord | undefined> {
  const [row] = await db.query<ContactRow>(
    `SELECT ${COLUMNS} FROM contacts WHERE pubsub_token_hash = ANY($1::text[])`,
    [box.lookupHashes(token)],
  );
  return row && toContact(box, row);
}

export async function findContactById(db: Queryable, box: SecretBox, id: number): Promise<ContactRecord | undefined> {
  const [row] = await db.query<ContactRow>(`SELECT ${COLUMNS} FROM contacts WHERE id = $1`, [id]);
  return row && toContact(box, row);
}

/**
 * The contact whose identifier was proved with its identifier_hash: one per identifier and inbox
 * (a unique index, migration 033). Only these are found by a proved identifier: a contact that
 * merely claimed it (issue 12) is someone else as far as anyone can tell.
 */
export async function findProvedContact(
  db: Queryable,
  box: SecretBox,
  inboxId: string,
  identifier: string,
): Promise<ContactRecord | undefined> {
  const [row] = await db.query<ContactRow>(
    `SELECT ${COLUMNS} FROM contacts WHERE inbox_id = $1 AND identifier = $2 AND hmac_verified`,
    [inboxId, identifier],
  );
  return row && toContact(box, row);
}

/**
 * For a create without proof: an existing contact of the same person, matched by identifier, else
 * email, else phone number (as Chatwoot matches), among contacts nobody proved and whose person was
 * not proved either, so that what a caller merely claims never links them to a proved contact.
 */
export async function matchUnprovedContact(
  db: Queryable,
  box: SecretBox,
  inboxId: string,
  by: { identifier?: string | undefined; email?: string | undefined; phoneNumber?: string | undefined },
): Promise<ContactRecord | undefined> {
  const tries: [string, string | undefined][] = [
    ['identifier = $2', by.identifier],
    ['lower(email) = lower($2)', by.email],
    ['phone_number = $2', by.phoneNumber],
  ];
  for (const [condition, value] of tries) {
    if (!value) continue;
    // The person's first contact, so that every match points at one record.
    const [row] = await db.query<ContactRow>(
      `SELECT ${COLUMNS} FROM contacts c WHERE inbox_id = $1 AND ${condition} AND NOT hmac_verified
         AND NOT EXISTS (SELECT 1 FROM contacts p WHERE p.id = c.person_id AND p.hmac_verified)
       ORDER BY COALESCE(person_id, id), id LIMIT 1`,
      [inboxId, value],
    );
    if (row) return toContact(box, row);
  }
  return undefined;
}

export interface ContactFields {
  identifier?: string | undefined;
  name?: string | undefined;
  email?: string | undefined;
  phoneNumber?: string | undefined;
  customAttributes?: Record<string, unknown> | undefined;
}

/** A new contact: `hmacVerified` when its identifier was proved, `personId` when it is another contact of a known person. */
export async function insertContact(
  db: Queryable,
  box: SecretBox,
  inboxId: string,
  given: string | undefined,
  fields: ContactFields,
  now: Date,
  { personId, hmacVerified = false }: { personId?: number | undefined; hmacVerified?: boolean } = {},
): Promise<ContactRecord> {
  const sourceId = given ?? randomToken(24);
  const pubsubToken = randomToken(24);
  const [row] = await db.query<ContactRow>(
    `INSERT INTO contacts (inbox_id, source_id, source_id_hash, pubsub_token, pubsub_token_hash, identifier, name, email,
       phone_number, custom_attributes, created_at, updated_at, person_id, hmac_verified)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $11, $12, $13) RETURNING ${COLUMNS}`,
    [
      inboxId,
      box.seal(sourceId),
      box.lookupHash(sourceId),
      box.seal(pubsubToken),
      box.lookupHash(pubsubToken),
      fields.identifier ?? null,
      fields.name ?? `Visitor ${randomToken(4)}`,
      fields.email ?? null,
      fields.phoneNumber ?? null,
      JSON.stringify(fields.customAttributes ?? {}),
      now,
      personId ?? null,
      hmacVerified,
    ],
  );
  return toContact(box, row!);
}

/**
 * Updates the given fields (blank ones are skipped) and deep-merges custom attributes. The
 * identifier is set only with proof (`proved`), and only where there was none: a contact proved
 * here becomes a person of its own, leaving any person it was matched to by what it claimed.
 */
export async function updateContact(
  db: Queryable,
  box: SecretBox,
  contact: ContactRecord,
  fields: Omit<ContactFields, 'identifier'>,
  proof: { proved: false } | { proved: true; identifier: string },
  now: Date,
): Promise<ContactRecord> {
  const merged = deepMerge(contact.customAttributes, fields.customAttributes ?? {});
  const [row] = await db.query<ContactRow>(
    `UPDATE contacts SET name = COALESCE($2, name), email = COALESCE($3, email), phone_number = COALESCE($4, phone_number),
       identifier = COALESCE(identifier, $5), custom_attributes = $6::jsonb, updated_at = $7,
       person_id = CASE WHEN $8 AND NOT hmac_verified THEN NULL ELSE person_id END, hmac_verified = hmac_verified OR $8
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [
      contact.id,
      blankToNull(fields.name),
      blankToNull(fields.email),
      blankToNull(fields.phoneNumber),
      proof.proved ? proof.identifier : null,
      JSON.stringify(merged),
      now,
      proof.proved,
    ],
  );
  return toContact(box, row!);
}

const blankToNull = (value: string | undefined) => (value && value.trim() ? value : null);

/** Objects merge key by key, at every depth; anything else is replaced. */
export function deepMerge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return out;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
