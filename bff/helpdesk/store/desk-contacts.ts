import type { Queryable } from '../../../shared/server/index.ts';
import { selectDesk, toDesk, type DeskConversation, type DeskRow } from './desk-conversations.ts';

/** A contact as the people of its account see it. */
export interface DeskContactRow {
  id: number;
  inbox_id: string;
  inbox_display_id: number;
  name: string;
  email: string | null;
  phone_number: string | null;
  identifier: string | null;
  custom_attributes: Record<string, unknown>;
  customer_ref: string | null;
  created_at: Date;
}

const SELECT = `SELECT k.id::int AS id, k.inbox_id, i.display_id::int AS inbox_display_id, k.name, k.email, k.phone_number,
    k.identifier, k.custom_attributes, k.customer_ref, k.created_at
  FROM contacts k JOIN inboxes i ON i.id = k.inbox_id`;

/** A contact of the account, when it is in one of `inboxIds` (undefined: any of the account's). */
export async function findDeskContact(
  db: Queryable,
  accountId: number,
  id: number,
  inboxIds: readonly string[] | undefined,
): Promise<DeskContactRow | undefined> {
  const [row] = await db.query<DeskContactRow>(
    `${SELECT} WHERE i.account_id = $1 AND k.id = $2 AND ($3::text[] IS NULL OR k.inbox_id = ANY($3::text[]))`,
    [accountId, id, inboxIds ?? null],
  );
  return row;
}

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/** Contacts of the account whose name, e-mail, phone number or identifier holds `query`, newest first. */
export async function searchDeskContacts(
  db: Queryable,
  accountId: number,
  inboxIds: readonly string[] | undefined,
  query: string,
  page: { number: number; size: number },
): Promise<{ contacts: DeskContactRow[]; count: number }> {
  const where = `WHERE i.account_id = $1 AND ($2::text[] IS NULL OR k.inbox_id = ANY($2::text[]))
    AND (lower(k.name) LIKE $3 OR lower(COALESCE(k.email, '')) LIKE $3 OR COALESCE(k.phone_number, '') LIKE $3
      OR lower(COALESCE(k.identifier, '')) LIKE $3)`;
  const params = [accountId, inboxIds ?? null, likePattern(query)];
  const [counted] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM contacts k JOIN inboxes i ON i.id = k.inbox_id ${where}`,
    params,
  );
  const contacts = await db.query<DeskContactRow>(`${SELECT} ${where} ORDER BY k.id DESC LIMIT $4 OFFSET $5`, [
    ...params,
    page.size,
    (page.number - 1) * page.size,
  ]);
  return { contacts, count: counted?.n ?? 0 };
}

/**
 * The contact of a widget customer (found by their reference), made the first time people need it,
 * with the name and e-mail their conversation has. It has no source_id and no pubsub_token: nobody
 * reaches it through the Client API (migration 042).
 */
export async function ensureCustomerContact(
  db: Queryable,
  customer: { inboxId: string; customerRef: string; name: string | null; email: string | null },
  now: Date,
): Promise<number> {
  await db.query(
    `INSERT INTO contacts (inbox_id, name, email, customer_ref, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT DO NOTHING`,
    [customer.inboxId, customer.name ?? '', customer.email, customer.customerRef, now],
  );
  const [row] = await db.query<{ id: number }>(
    'SELECT id::int AS id FROM contacts WHERE inbox_id = $1 AND customer_ref = $2',
    [customer.inboxId, customer.customerRef],
  );
  return row!.id;
}

export interface ContactChanges {
  name?: string | undefined;
  email?: string | null | undefined;
  phone_number?: string | null | undefined;
  custom_attributes?: Record<string, unknown> | undefined;
}

/**
 * Changes a contact, and the name and e-mail address its conversations show (a conversation keeps
 * the ones the customer gave it, which the contact's edit replaces).
 */
export async function updateDeskContact(
  db: Queryable,
  contact: DeskContactRow,
  changes: ContactChanges,
  now: Date,
): Promise<void> {
  const set = (field: keyof ContactChanges) => changes[field] !== undefined;
  await db.query(
    `UPDATE contacts SET name = CASE WHEN $2 THEN $3 ELSE name END, email = CASE WHEN $4 THEN $5 ELSE email END,
       phone_number = CASE WHEN $6 THEN $7 ELSE phone_number END,
       custom_attributes = CASE WHEN $8 THEN $9::jsonb ELSE custom_attributes END, updated_at = $10 WHERE id = $1`,
    [
      contact.id,
      set('name'),
      changes.name ?? null,
      set('email'),
      changes.email ?? null,
      set('phone_number'),
      changes.phone_number ?? null,
      set('custom_attributes'),
      JSON.stringify(changes.custom_attributes ?? {}),
      now,
    ],
  );
  await db.query(
    `UPDATE conversations SET contact_name = CASE WHEN $3 THEN $4 ELSE contact_name END,
       contact_email = CASE WHEN $5 THEN $6 ELSE contact_email END
     WHERE inbox_id = $1 AND customer_ref = ANY($2::text[])`,
    [contact.inbox_id, customerRefsOf(contact), set('name'), changes.name ?? null, set('email'), changes.email ?? null],
  );
}

/** The references the contact's conversations carry: `ctc_<id>` (Client API), or the widget customer's. */
export const customerRefsOf = (contact: DeskContactRow): string[] =>
  contact.customer_ref ? [contact.customer_ref] : [`ctc_${contact.id}`];

/** The contact's conversations (at most 100), newest first. */
export async function contactConversations(
  db: Queryable,
  contact: DeskContactRow,
  now: Date,
): Promise<DeskConversation[]> {
  const rows = await db.query<DeskRow>(
    `${selectDesk('$3::timestamptz')} WHERE c.inbox_id = $1 AND c.customer_ref = ANY($2::text[]) ORDER BY c.id DESC LIMIT 100`,
    [contact.inbox_id, customerRefsOf(contact), now],
  );
  return rows.map(toDesk);
}
