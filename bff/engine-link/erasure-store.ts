import type { Queryable } from '../../shared/server/index.ts';
import { SANDBOX_PREFIX } from '../widget/customer-refs.ts';
import { servedBy, type EngineScope } from './engine-accounts-store.ts';
import type { Environment } from '../store/inboxes.ts';

/** Whom an erasure is for: a customer as one engine account names them, in one environment. */
export interface ErasedCustomer {
  /** The engine account that forgot them: only the inboxes it serves are searched. */
  scope: EngineScope;
  environment: Environment;
  /** The reference as the engine knows it (a sandbox verified customer is `test:<ref>` here). */
  customerRef: string;
  /** The engine conversations the customer had (found here even under another reference, after a merge). */
  engineConversationIds: readonly string[];
}

/** What an erasure removed, and who was connected as that customer (their sockets are closed). */
export interface ErasureResult {
  conversations: number;
  messages: number;
  contacts: number;
  /** Each inbox and BFF reference the customer chatted under. */
  customers: { inboxId: string; customerRef: string }[];
  /** The Client API contacts that were the customer. */
  contactIds: number[];
}

/** The BFF's references of a customer the engine names: as given, and a sandbox verified customer's own space. */
export const bffRefsOf = (environment: Environment, customerRef: string): string[] =>
  environment === 'sandbox' && !customerRef.startsWith(SANDBOX_PREFIX)
    ? [customerRef, `${SANDBOX_PREFIX}${customerRef}`]
    : [customerRef];

const CONTACT_REF = /^ctc_(\d{1,18})$/;

/** The customer's conversations here (locked until the transaction ends when `lock`). */
export async function customerConversations(
  db: Queryable,
  customer: ErasedCustomer,
  lock = false,
): Promise<{ id: number; uuid: string; inbox_id: string; customer_ref: string }[]> {
  const rows = await db.query<{ id: number; uuid: string; inbox_id: string; customer_ref: string }>(
    `SELECT id, uuid, inbox_id, customer_ref FROM conversations
     WHERE environment = $1 AND (customer_ref = ANY($2::text[]) OR engine_conversation_id = ANY($3::text[])) AND ${servedBy('inbox_id', '$4')}
     ORDER BY id${lock ? ' FOR UPDATE' : ''}`,
    [
      customer.environment,
      bffRefsOf(customer.environment, customer.customerRef),
      [...customer.engineConversationIds],
      customer.scope,
    ],
  );
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/**
 * Erases everything the BFF keeps of one customer, in the caller's transaction: their
 * conversations with every message (and so their outbox), survey answers and attachment rows (the
 * attachments' bytes are deleted before, by the attachment store), the Client API contact that was
 * them and the contact a widget visitor got, their ended identities, and the helpdesk webhook deliveries that carried their words. One
 * line per table; a table added later that names a customer needs its line here
 * (test/forget.test.ts reads every table and fails until it has one).
 */
export async function eraseCustomer(tx: Queryable, customer: ErasedCustomer): Promise<ErasureResult> {
  const refs = bffRefsOf(customer.environment, customer.customerRef);
  const conversations = await customerConversations(tx, customer, true);
  const ids = conversations.map((row) => row.id);
  const chattedAs = [...new Set([...refs, ...conversations.map((row) => row.customer_ref)])];
  // Client API contacts are live customers: a sandbox reference never names one.
  const contactIds =
    customer.environment === 'live'
      ? [...new Set(chattedAs.flatMap((ref) => (CONTACT_REF.test(ref) ? [Number(CONTACT_REF.exec(ref)![1])] : [])))]
      : [];
  // Deliveries name a conversation by its uuid, and a customer by their reference (webwidget_triggered).
  const needles = [
    ...conversations.map((row) => row.uuid),
    ...chattedAs.flatMap((ref) =>
      ['customer_ref', 'source_id', 'identifier'].map((member) => `"${member}":${JSON.stringify(ref)}`),
    ),
  ];

  if (await tableExists(tx, 'attachments'))
    await tx.query('DELETE FROM attachments WHERE conversation_id = ANY($1::bigint[])', [ids]);
  // Deliveries of the engine account's own helpdesk accounts (and the installation's bots), never another account's.
  await tx.query(
    `DELETE FROM webhook_deliveries WHERE EXISTS (SELECT 1 FROM unnest($1::text[]) AS needle WHERE strpos(body, needle) > 0)
       AND endpoint_id IN (SELECT w.id FROM webhook_endpoints w WHERE w.account_id IS NULL OR CASE WHEN $2::int IS NULL
         THEN NOT EXISTS (SELECT 1 FROM engine_accounts e WHERE e.account_id = w.account_id) ELSE w.account_id = $2::int END)`,
    [needles, customer.scope],
  );
  await tx.query('DELETE FROM surveys WHERE conversation_id = ANY($1::bigint[])', [ids]);
  const messages = await tx.query('DELETE FROM messages WHERE conversation_id = ANY($1::bigint[]) RETURNING 1', [ids]);
  await tx.query('DELETE FROM conversations WHERE id = ANY($1::bigint[])', [ids]);
  // The Client API contacts that were them, and the contact a widget visitor got (a name, the address they typed).
  const contacts = await tx.query(
    `DELETE FROM contacts WHERE (id = ANY($1::bigint[]) OR customer_ref = ANY($3::text[])) AND ${servedBy('inbox_id', '$2')}
     RETURNING 1`,
    [contactIds, customer.scope, chattedAs],
  );
  await tx.query(
    `DELETE FROM revoked_identities WHERE customer_ref = ANY($1::text[]) AND ${servedBy('inbox_id', '$2')}`,
    [chattedAs, customer.scope],
  );
  await tx.query(`DELETE FROM visitor_traits WHERE customer_ref = ANY($1::text[]) AND ${servedBy('inbox_id', '$2')}`, [
    chattedAs,
    customer.scope,
  ]);

  const customers = [
    ...new Map(
      conversations.map((row) => [
        `${row.inbox_id}\n${row.customer_ref}`,
        { inboxId: row.inbox_id, customerRef: row.customer_ref },
      ]),
    ).values(),
  ];
  return { conversations: ids.length, messages: messages.length, contacts: contacts.length, customers, contactIds };
}

async function tableExists(db: Queryable, table: string): Promise<boolean> {
  const [row] = await db.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [table]);
  return Boolean(row?.found);
}
