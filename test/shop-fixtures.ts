import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from '../shared/server/index.ts';
import { DEMO_ACTIONS, DEMO_FIXTURES } from '../demo/actions.ts';
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
 * markdown, read from its folder; the actions are the demo's `demo/actions.ts`, plain data that
 * the house rules let tests import (no other file of the demo: tests never start the demo).
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

/**
 * The shop's knowledge documents in every language they are written in: the English ones of the
 * folder, then the German, Spanish and French versions of its subfolders (the same sections).
 */
export async function shopKnowledgeInEveryLanguage(): Promise<{ title: string; body: string; locale: string }[]> {
  const english = (await shopKnowledge()).map((document) => ({ ...document, locale: 'en' }));
  const others = await Promise.all(
    ['de', 'es', 'fr'].map(async (locale) => {
      const folder = join(SHOP_KNOWLEDGE_DIR, locale);
      const names = (await readdir(folder)).filter((name) => name.endsWith('.md')).sort();
      return Promise.all(
        names.map(async (name) => {
          const body = await readFile(join(folder, name), 'utf8');
          return { title: /^#\s+(.+)$/m.exec(body)?.[1]?.trim() ?? name, body, locale };
        }),
      );
    }),
  );
  return [...english, ...others.flat()];
}

/** The shop's actions and what they give in the sandbox: the demo's sample shop's, which are data (no demo starts). */
export const shopActions: ActionDefinition[] = DEMO_ACTIONS;
export const shopSandboxResults: Record<string, Record<string, unknown>> = DEMO_FIXTURES;

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
