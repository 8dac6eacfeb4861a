import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { SecretBox, Sql } from '../shared/server/index.ts';
import {
  addKnowledgeDocument,
  apiKeyExists,
  createAccount,
  addMonitor,
  defineAction,
  findCallerByKey,
  issueApiKey,
  setAccountRateLimit,
  setSandboxFixture,
} from '../engine/index.ts';
import { DEMO_ACTIONS, DEMO_FIXTURES, demoActionRequests } from './actions.ts';
import { DEMO_ACTION_PATH } from './storefront.ts';
import { DEMO_MONITORS } from './monitors.ts';
import {
  addSiteKey,
  createInbox,
  createPlatformToken,
  createSignInLink,
  enableClientApi,
  findUserByEmail,
  inboxMembers,
  insertAccount,
  insertUser,
  readSetting,
  roleIn,
  setInboxMembers,
  SIGN_IN_LINK_TTL_MS,
  consoleSignInUrl,
  upsertAccountUser,
  writeSetting,
} from '../bff/index.ts';

/**
 * The BFF's one sandbox key carries the engine calls of every visitor of the demo (about two per
 * message; the feed is not polled while webhooks work), so the demo account may make more than the
 * sandbox's default 60 a minute.
 */
export const DEMO_REQUESTS_PER_MINUTE = 6000;

export const KNOWLEDGE_DIR = fileURLToPath(new URL('./knowledge/', import.meta.url));

/** A document of the demo knowledge base, in its language (`en`, or the name of its folder). */
export interface DemoKnowledgeDocument {
  title: string;
  body: string;
  locale: string;
}

/**
 * Reads the demo knowledge base: one markdown file per document, its `#` heading the title; the
 * folder's own files are English, and each subfolder (`de/`, `es/`, `fr/`) holds the versions in
 * the language it is named after. English first, then the languages in the order of their names.
 */
export async function readKnowledge(folder = KNOWLEDGE_DIR): Promise<DemoKnowledgeDocument[]> {
  const languages = (await readdir(folder, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const versions = await Promise.all(languages.map((locale) => readArticles(join(folder, locale), locale)));
  return [...(await readArticles(folder, 'en')), ...versions.flat()];
}

async function readArticles(folder: string, locale: string): Promise<DemoKnowledgeDocument[]> {
  const names = (await readdir(folder)).filter((name) => name.endsWith('.md')).sort();
  return Promise.all(
    names.map(async (name) => {
      const body = await readFile(join(folder, name), 'utf8');
      const title = /^#\s+(.+)$/m.exec(body)?.[1]?.trim() ?? name.replace(/\.md$/, '');
      return { title, body, locale };
    }),
  );
}

/**
 * The sandbox account of the demo: an engine account with its API key and the knowledge base,
 * and a BFF inbox with a sandbox site key. Made on first start; `created` says whether it was.
 */
export async function seedEngineAccount(
  engineSql: Sql,
  apiKey?: string,
): Promise<{ accountId: string; apiKey: string }> {
  const accountId = await createAccount(engineSql, 'Demo store');
  const issued = await issueApiKey(engineSql, accountId, 'sandbox', apiKey);
  // The demo's BFF speaks for every visitor with this one key, so it gets more than the sandbox's 60 a minute.
  await setAccountRateLimit(engineSql, accountId, 'sandbox', DEMO_REQUESTS_PER_MINUTE);
  // Every language's version: the brain reads each in its own language and answers a customer from theirs.
  // The knowledge and the actions go to both environments (each has its own, migration 018), so the
  // demo's live customers are answered as its sandbox ones are.
  for (const document of await readKnowledge())
    await addKnowledgeDocument(engineSql, accountId, { ...document, approved: true });
  for (const action of DEMO_ACTIONS) await defineAction(engineSql, accountId, action);
  for (const [action, result] of Object.entries(DEMO_FIXTURES))
    await setSandboxFixture(engineSql, accountId, action, result);
  for (const monitor of DEMO_MONITORS) await addMonitor(engineSql, { accountId, environment: 'sandbox' }, monitor);
  return { accountId, apiKey: issued.key };
}

export interface DemoInbox {
  inboxId: string;
  siteKey: string;
  created: boolean;
}

/** The demo inbox and its sandbox site key, made once and remembered in the BFF's settings. */
export async function ensureDemoInbox(bffSql: Sql, siteKey?: string): Promise<DemoInbox> {
  const inboxId = await readSetting(bffSql, 'demo_inbox_id');
  const storedKey = await readSetting(bffSql, 'demo_site_key');
  if (inboxId && storedKey && (!siteKey || siteKey === storedKey))
    return { inboxId, siteKey: storedKey, created: false };
  if (inboxId && siteKey) {
    await addSiteKey(bffSql, inboxId, 'sandbox', [], siteKey);
    await writeSetting(bffSql, 'demo_site_key', siteKey);
    return { inboxId, siteKey, created: true };
  }
  const inbox = await createInbox(bffSql, {
    name: 'Demo store',
    greeting: 'Hi! Ask me anything about orders, delivery, returns or payments.',
  });
  const key = await addSiteKey(bffSql, inbox.id, 'sandbox', [], siteKey);
  await writeSetting(bffSql, 'demo_inbox_id', inbox.id);
  await writeSetting(bffSql, 'demo_site_key', key.key);
  return { inboxId: inbox.id, siteKey: key.key, created: true };
}

/**
 * The API key the BFF uses with the local engine: DEMO_API_KEY, else the one kept from an earlier
 * start, as long as the engine still knows it; otherwise a new sandbox account is seeded with it.
 */
export interface DemoEngineKeys {
  /** The sandbox key (DEMO_API_KEY when given), then the live key of the same account. */
  apiKeys: [string, string];
  /** The sandbox key was made by this start (it is printed once). */
  created: boolean;
}

/**
 * The demo's engine keys, one per environment, of one account: the sandbox key (`engine_api_key`)
 * serves the sandbox site key's visitors, the live key (`engine_api_key_live`) live customers (the
 * Client API's contacts, DEMO_LIVE_SITE_KEY's visitors), so sandbox fixtures never answer them.
 */
export async function ensureEngineKeys(
  engineSql: Sql,
  bffSql: Sql,
  box: SecretBox,
  demoApiKey?: string,
): Promise<DemoEngineKeys> {
  const sandbox = await ensureSandboxKey(engineSql, bffSql, box, demoApiKey);
  const caller = await findCallerByKey(engineSql, sandbox.apiKey);
  if (!caller) throw new Error('the demo sandbox key opens no account');
  const storedLive = await readSealedSetting(bffSql, box, 'engine_api_key_live');
  const liveCaller = storedLive ? await findCallerByKey(engineSql, storedLive) : undefined;
  if (storedLive && liveCaller?.accountId === caller.accountId)
    return { apiKeys: [sandbox.apiKey, storedLive], created: sandbox.created };
  const { key } = await issueApiKey(engineSql, caller.accountId, 'live');
  // Every live customer's call goes through the BFF's one live key, as the sandbox's do through theirs.
  await setAccountRateLimit(engineSql, caller.accountId, 'live', DEMO_REQUESTS_PER_MINUTE);
  await writeSetting(bffSql, 'engine_api_key_live', box.seal(key));
  return { apiKeys: [sandbox.apiKey, key], created: sandbox.created };
}

async function ensureSandboxKey(
  engineSql: Sql,
  bffSql: Sql,
  box: SecretBox,
  demoApiKey?: string,
): Promise<{ apiKey: string; created: boolean }> {
  const wanted = demoApiKey ?? (await readSealedSetting(bffSql, box, 'engine_api_key'));
  if (wanted && (await apiKeyExists(engineSql, wanted))) {
    await writeSetting(bffSql, 'engine_api_key', box.seal(wanted));
    return { apiKey: wanted, created: false };
  }
  const seeded = await seedEngineAccount(engineSql, wanted);
  await writeSetting(bffSql, 'engine_api_key', box.seal(seeded.apiKey));
  return { apiKey: seeded.apiKey, created: true };
}

/**
 * The operator token the demo's own engine and BFF share (AI_OPERATOR_TOKEN when given, else the one
 * kept sealed from an earlier start, else a new one): the BFF makes each new helpdesk account's
 * engine account with it, with no configuration.
 */
export async function ensureOperatorToken(bffSql: Sql, box: SecretBox, configured?: string): Promise<string> {
  if (configured) return configured;
  const kept = await readSealedSetting(bffSql, box, 'engine_operator_token');
  if (kept) return kept;
  const made = `op_${randomBytes(32).toString('base64url')}`;
  await writeSetting(bffSql, 'engine_operator_token', box.seal(made));
  return made;
}

/** A setting kept sealed; one sealed with a key this start does not hold counts as never kept (it is made again). */
async function readSealedSetting(bffSql: Sql, box: SecretBox, name: string): Promise<string | undefined> {
  const stored = await readSetting(bffSql, name);
  try {
    return stored === undefined ? undefined : box.open(stored);
  } catch {
    return undefined;
  }
}

/**
 * The demo's live site key (DEMO_LIVE_SITE_KEY), allowed from `origins`. Its allowlist is set
 * anew at every start, so a changed DEMO_ALLOWED_ORIGINS takes effect.
 */
export async function ensureDemoLiveKey(bffSql: Sql, inboxId: string, key: string, origins: string[]): Promise<void> {
  const updated = await bffSql.query(
    'UPDATE site_keys SET allowed_origins = $2 WHERE key = $1 AND inbox_id = $3 RETURNING 1',
    [key, origins, inboxId],
  );
  if (updated.length === 0) await addSiteKey(bffSql, inboxId, 'live', origins, key);
}

/** Opens the demo inbox to the helpdesk Client API, with DEMO_INBOX_IDENTIFIER when given; gives its identifier. */
export async function ensureClientApi(bffSql: Sql, inboxId: string, wanted?: string): Promise<string> {
  const [row] = await bffSql.query<{ identifier: string | null }>('SELECT identifier FROM inboxes WHERE id = $1', [
    inboxId,
  ]);
  if (row?.identifier && (!wanted || wanted === row.identifier)) return row.identifier;
  const { identifier } = await enableClientApi(bffSql, inboxId, wanted ? { identifier: wanted } : {});
  return identifier;
}

/**
 * Makes sure the engine pushes its events to this BFF: one webhook endpoint at `webhookUrl`,
 * made through the engine's own API and remembered (id and secret) in the BFF's settings. A
 * changed address (another port) replaces the old endpoint. Gives the signing secret.
 */
export async function ensureEngineWebhook(
  engineUrl: string,
  apiKey: string,
  bffSql: Sql,
  box: SecretBox,
  webhookUrl: string,
): Promise<string> {
  const api = (path: string, init: RequestInit = {}) =>
    fetch(engineUrl + path, {
      ...init,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    });
  // One endpoint per environment (an endpoint hears of its key's environment only); the sandbox's keeps its older name.
  const setting = apiKey.startsWith('service_live_') ? 'engine_webhook_live' : 'engine_webhook';
  const stored = await readSealedSetting(bffSql, box, setting);
  const known = stored ? (JSON.parse(stored) as { id: string; url: string; secret: string }) : undefined;
  if (known?.url === webhookUrl) {
    const found = await api(`/v1/webhook-endpoints/${known.id}`);
    if (found.ok && ((await found.json()) as { enabled: boolean }).enabled) return known.secret;
  }
  if (known) await api(`/v1/webhook-endpoints/${known.id}`, { method: 'DELETE' });
  const created = await api('/v1/webhook-endpoints', {
    method: 'POST',
    body: JSON.stringify({ url: webhookUrl, description: 'Parley BFF' }),
  });
  if (!created.ok)
    throw new Error(`the engine refused the BFF's webhook endpoint: ${created.status} ${await created.text()}`);
  const endpoint = (await created.json()) as { id: string; secret: string };
  await writeSetting(
    bffSql,
    setting,
    box.seal(JSON.stringify({ id: endpoint.id, url: webhookUrl, secret: endpoint.secret })),
  );
  return endpoint.secret;
}

export interface DemoHelpdesk {
  /** The operator's platform app token when this start made it (to print once). */
  newPlatformToken: string | undefined;
  platformTokenId: number;
  accountId: number;
}

/**
 * The demo operator's platform app token (DEMO_PLATFORM_TOKEN, else one made on the first start,
 * shown once) and the demo account it administers, which holds the demo inbox.
 */
export async function ensureDemoHelpdesk(
  bffSql: Sql,
  inboxId: string,
  configuredToken: string | undefined,
): Promise<DemoHelpdesk> {
  const now = new Date();
  let newPlatformToken: string | undefined;
  let tokenId: number;
  if (configuredToken) {
    tokenId = (await createPlatformToken(bffSql, 'demo operator', now, configuredToken)).id;
  } else {
    const stored = await readSetting(bffSql, 'demo_platform_token_id');
    if (stored) {
      tokenId = Number(stored);
    } else {
      const made = await createPlatformToken(bffSql, 'demo operator', now);
      await writeSetting(bffSql, 'demo_platform_token_id', String(made.id));
      tokenId = made.id;
      newPlatformToken = made.token;
    }
  }
  const [inbox] = await bffSql.query<{ account_id: number | null }>('SELECT account_id FROM inboxes WHERE id = $1', [
    inboxId,
  ]);
  let accountId = inbox?.account_id ?? undefined;
  if (accountId === undefined) {
    accountId = (await insertAccount(bffSql, { name: 'Demo store' }, tokenId, now)).id;
    await bffSql.query('UPDATE inboxes SET account_id = $2 WHERE id = $1', [inboxId, accountId]);
  }
  // The operator's token reaches the demo account, also after DEMO_PLATFORM_TOKEN changed.
  await bffSql.query('UPDATE accounts SET platform_token_id = $2 WHERE id = $1', [accountId, tokenId]);
  return { newPlatformToken, platformTokenId: tokenId, accountId };
}

/** The person who answers the demo's handed-over customers in the agent console. */
export const DEMO_AGENT = { name: 'Demo Agent', email: 'agent@demo.parley.example' } as const;

/**
 * The demo agent: an administrator of the demo account who answers the demo inbox (and may see
 * its Reports, change its inbox, add colleagues).
 * Made on the first start with the operator's token (so the Platform API reaches them too) and
 * found again by e-mail later. Later starts leave their name and role as an administrator set
 * them, and only join them to the account and the inbox again if they were taken out. Gives
 * their id.
 */
export async function ensureDemoAgent(bffSql: Sql, helpdesk: DemoHelpdesk, inboxId: string): Promise<number> {
  const now = new Date();
  return bffSql.transaction(async (tx) => {
    const agent =
      (await findUserByEmail(tx, DEMO_AGENT.email)) ??
      (await insertUser(tx, DEMO_AGENT, helpdesk.platformTokenId, now));
    // Only another process making the same person at this very moment gets here.
    if (!agent) throw new Error(`the demo agent ${DEMO_AGENT.email} was being made by another start; start again`);
    if (!(await roleIn(tx, helpdesk.accountId, agent.id)))
      await upsertAccountUser(tx, helpdesk.accountId, agent.id, 'administrator', now);
    const members = await inboxMembers(tx, inboxId);
    if (!members.includes(agent.id)) await setInboxMembers(tx, inboxId, [...members, agent.id]);
    return agent.id;
  });
}

/**
 * A one-time link that signs the demo agent in to the agent console, made anew at every start;
 * it works once, for SIGN_IN_LINK_TTL_MS (5 minutes). The same link as the Platform API's
 * `GET /platform/api/v1/users/{id}/login`: the token is in the fragment, which no server sees.
 */
export async function demoAgentSignInUrl(bffSql: Sql, agentId: number, baseUrl: string): Promise<string> {
  const token = await createSignInLink(bffSql, agentId, new Date(), SIGN_IN_LINK_TTL_MS);
  return consoleSignInUrl(baseUrl, token);
}

/**
 * Points the demo's actions, for live customers, at the demo store's own action endpoint on this
 * BFF's address (`storeUrl` + /store/actions/{name}, storefront.ts), through the engine's API with
 * the live key, so a live customer's "Where is my order 1001?" is answered by the store instead of
 * waiting for a person. Each start gives each action a new signing secret; gives them by action
 * name, for the storefront to check the engine's requests with.
 */
export async function ensureDemoLiveActions(
  engineUrl: string,
  liveApiKey: string,
  storeUrl: string,
): Promise<Map<string, string>> {
  const secrets = new Map<string, string>();
  for (const { name, body } of demoActionRequests((action) => `${storeUrl}${DEMO_ACTION_PATH}/${action}`)) {
    const answer = await fetch(`${engineUrl}/v1/actions/${name}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${liveApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!answer.ok)
      throw new Error(`the engine refused the demo's live action ${name}: ${answer.status} ${await answer.text()}`);
    secrets.set(name, ((await answer.json()) as { secret: string }).secret);
  }
  return secrets;
}
