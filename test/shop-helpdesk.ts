import type { Sql } from '../shared/server/index.ts';
import {
  addSiteKey,
  consoleSignInUrl,
  createInbox,
  createPlatformToken,
  createSignInLink,
  enableClientApi,
  insertAccount,
  insertUser,
  setInboxMembers,
  SIGN_IN_LINK_TTL_MS,
  upsertAccountUser,
} from '../bff/index.ts';

/** The person of the shop's helpdesk account who answers its inbox in the agent console. */
export const SHOP_AGENT = { name: 'Demo Agent', email: 'agent@demo.parley.example' } as const;

export interface ShopHelpdesk {
  inboxId: string;
  /** The inbox's identifier for the helpdesk Client API. */
  inboxIdentifier: string;
  /** The helpdesk account that holds the inbox. */
  accountId: number;
  /** The operator's platform app token, when it was made here (none was given). */
  newPlatformToken: string | undefined;
  /** SHOP_AGENT's one-time link into the agent console (it works once, for 5 minutes). */
  agentSignInUrl: string;
}

/**
 * The shop's side of a fresh BFF store, named as the demo names its own (tests check the names):
 * the inbox "Demo store" with its sandbox site key (and a live one, allowed from `liveOrigins`),
 * open to the Client API; the operator's platform token (`platformToken` when given) and the
 * helpdesk account it administers, which holds the inbox; and SHOP_AGENT, who answers it.
 */
export async function openShopHelpdesk(
  sql: Sql,
  options: {
    siteKey: string;
    liveSiteKey: string | undefined;
    liveOrigins: string[];
    platformToken: string | undefined;
    consoleBaseUrl: string;
  },
): Promise<ShopHelpdesk> {
  const now = new Date();
  const inbox = await createInbox(sql, {
    name: 'Demo store',
    greeting: 'Hi! Ask me anything about orders, delivery, returns or payments.',
  });
  await addSiteKey(sql, inbox.id, 'sandbox', [], options.siteKey);
  if (options.liveSiteKey) await addSiteKey(sql, inbox.id, 'live', options.liveOrigins, options.liveSiteKey);
  const { identifier } = await enableClientApi(sql, inbox.id);
  const platformToken = await createPlatformToken(sql, 'test operator', now, options.platformToken);
  const account = await insertAccount(sql, { name: 'Demo store' }, platformToken.id, now);
  await sql.query('UPDATE inboxes SET account_id = $2 WHERE id = $1', [inbox.id, account.id]);
  const agent = await insertUser(sql, SHOP_AGENT, platformToken.id, now);
  if (!agent)
    throw new Error(`${SHOP_AGENT.email} is in this store already: the shop's helpdesk is made in a fresh store only`);
  await upsertAccountUser(sql, account.id, agent.id, 'agent', now);
  await setInboxMembers(sql, inbox.id, [agent.id]);
  return {
    inboxId: inbox.id,
    inboxIdentifier: identifier,
    accountId: account.id,
    newPlatformToken: options.platformToken ? undefined : platformToken.token,
    agentSignInUrl: consoleSignInUrl(
      options.consoleBaseUrl,
      await createSignInLink(sql, agent.id, now, SIGN_IN_LINK_TTL_MS),
    ),
  };
}
