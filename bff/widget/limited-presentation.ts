import type { Sql } from '../../shared/server/index.ts';
import { findInbox, findSiteKey } from '../store/inboxes.ts';
import { assertSiteKeyOrigin } from './origins.ts';

/** What a refused widget may still show of its inbox: the public name and e-mail its header and limit notice show. */
export interface LimitedPresentation {
  inbox: { name: string; email?: string | undefined };
}

/**
 * The inbox's public presentation for a site key refused by the rate limit, so that the widget
 * can show the shop's name and e-mail instead of "Chat": only for a valid, unrevoked key used from
 * one of its origins, and only the fields every visitor of the site sees anyway.
 */
export async function limitedPresentation(
  sql: Sql,
  siteKeyToken: string,
  origin: string,
): Promise<LimitedPresentation | undefined> {
  const siteKey = await findSiteKey(sql, siteKeyToken);
  if (!siteKey) return undefined;
  try {
    assertSiteKeyOrigin(siteKey.environment, siteKey.allowedOrigins, origin);
  } catch {
    return undefined;
  }
  return inboxPresentation(sql, siteKey.inboxId);
}

/** An inbox's public name and e-mail, for a refusal that comes before its config could (the widget's start, issue 34). */
export async function inboxPresentation(sql: Sql, inboxId: string): Promise<LimitedPresentation | undefined> {
  const inbox = await findInbox(sql, inboxId);
  return inbox && { inbox: { name: inbox.name, email: inbox.presentation.email || undefined } };
}
