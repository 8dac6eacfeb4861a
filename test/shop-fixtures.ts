import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from '../shared/server/index.ts';
import {
  addKnowledgeDocument,
  createAccount,
  defineAction,
  issueApiKey,
  setAccountRateLimit,
  setSandboxFixture,
  type ActionDefinition,
} from '../engine/index.ts';

/**
 * A shop to test the engine against: its knowledge base (returns, delivery, payment…), its actions
 * (look up an order, cancel one) and their sandbox results. The knowledge is the demo store's own
 * markdown, read from its folder (a path, not an import: tests never start the demo); the actions
 * are a copy of the demo's, so each room's tests depend on their own room and `test/` only.
 */
export const SHOP_KNOWLEDGE_DIR = fileURLToPath(new URL('../demo/knowledge/', import.meta.url));

/** The shop's knowledge documents, `{title, body}`: one markdown file each, its `#` heading the title. */
export async function shopKnowledge(): Promise<{ title: string; body: string }[]> {
  const names = (await readdir(SHOP_KNOWLEDGE_DIR)).filter((name) => name.endsWith('.md')).sort();
  return Promise.all(
    names.map(async (name) => {
      const body = await readFile(join(SHOP_KNOWLEDGE_DIR, name), 'utf8');
      const title = /^#\s+(.+)$/m.exec(body)?.[1]?.trim() ?? name.replace(/\.md$/, '');
      return { title, body };
    }),
  );
}

/** The shop's actions: the AI may ask the shop's server to look up or cancel an order. */
export const shopActions: ActionDefinition[] = [
  {
    name: 'lookup_order',
    description: 'Look up the status of an order',
    triggers: [
      ['where', 'order'],
      ['order', 'status'],
      ['track', 'order'],
      ['order', 'shipped'],
      ['order', 'arrive'],
      ['look', 'order'],
    ],
    inputs: [
      {
        name: 'order_number',
        description: 'The order number, as on the order confirmation',
        pattern: '(?:#|\\b)(\\d{4,12})\\b',
        required: true,
        ask: 'I can check that for you. What is your order number? You will find it in your order confirmation email.',
      },
    ],
    reply: 'Order {order_number} is {status}. It travels with {carrier} and should arrive {estimated_delivery}.',
    card: {
      title: 'Order {order_number}',
      fields: [
        { label: 'Status', field: 'status' },
        { label: 'Carrier', field: 'carrier' },
        { label: 'Arrives', field: 'estimated_delivery' },
      ],
    },
  },
  {
    name: 'cancel_order',
    description: 'Cancel an order',
    triggers: [['cancel', 'order']],
    inputs: [
      {
        name: 'order_number',
        description: 'The order number, as on the order confirmation',
        pattern: '(?:#|\\b)(\\d{4,12})\\b',
        required: true,
        ask: 'I can cancel it for you. What is the order number?',
      },
      {
        name: 'reason',
        description: 'Why the customer cancels, in their words',
        pattern: '\\b(?:because|since|as|reason(?:\\s+is)?:?)\\s+(.{3,300})',
        required: false,
        ask: 'May I ask why you are cancelling?',
      },
    ],
    reply:
      'Done: order {order_number} is cancelled. Your refund of {refund_amount} will reach your original payment method within {refund_days} business days.',
  },
];

/** What the shop's actions give in the sandbox, so that it answers without a shop's server behind it. */
export const shopSandboxResults: Record<string, Record<string, unknown>> = {
  lookup_order: { status: 'on its way', carrier: 'DHL', estimated_delivery: 'on Thursday' },
  cancel_order: { refund_amount: '49.00 euros', refund_days: 5 },
};

/** Requests a minute each of the shop's keys may make: tests make many; the limiter has tests of its own. */
const TEST_REQUESTS_PER_MINUTE = 100_000;

export interface ShopAccount {
  accountId: string;
  /** The sandbox key (`service_test_…`). */
  apiKey: string;
  /** The live key (`service_live_…`) of the same account. */
  liveApiKey: string;
}

/**
 * Makes the shop's account in an engine's store: a sandbox key (`sandboxKey` when given) and a live
 * key, limits no test reaches, the knowledge base approved and, with `actions`, the shop's actions
 * and their sandbox results.
 */
export async function openShopAccount(
  sql: Sql,
  { sandboxKey, actions = false }: { sandboxKey?: string; actions?: boolean } = {},
): Promise<ShopAccount> {
  const accountId = await createAccount(sql, 'Test shop');
  const { key: apiKey } = await issueApiKey(sql, accountId, 'sandbox', sandboxKey);
  const { key: liveApiKey } = await issueApiKey(sql, accountId, 'live');
  await setAccountRateLimit(sql, accountId, 'sandbox', TEST_REQUESTS_PER_MINUTE);
  await setAccountRateLimit(sql, accountId, 'live', TEST_REQUESTS_PER_MINUTE);
  for (const document of await shopKnowledge())
    await addKnowledgeDocument(sql, accountId, { ...document, approved: true });
  if (actions) {
    for (const action of shopActions) await defineAction(sql, accountId, action);
    for (const [action, result] of Object.entries(shopSandboxResults))
      await setSandboxFixture(sql, accountId, action, result);
  }
  return { accountId, apiKey, liveApiKey };
}
