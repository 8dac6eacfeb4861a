/**
 * The ways back from a digest, each a fresh random token kept only as its hash: the
 * `reply+<token>@MAIL_REPLY_DOMAIN` address, the single-use link that opens the conversation again
 * in the hosted /chat page, and the one-click unsubscribe address.
 */
import type { Sql } from '../../shared/server/index.ts';
import { keepContinuation, keepReplyToken, type DigestRecipient } from './email-store.ts';
import { CONTINUATION_TTL_MS, REPLY_TOKEN_TTL_MS, type EmailSettings } from './email-settings.ts';
import { emailTokenHash, newEmailToken, replyAddress } from './email-tokens.ts';
import { keepUnsubscribeToken } from './unsubscribe-tokens.ts';

export function createDigestLinks({
  sql,
  now,
  settings,
  publicUrl,
}: {
  sql: Sql;
  now: () => Date;
  settings: Pick<EmailSettings, 'replyDomain'>;
  publicUrl: string | undefined;
}) {
  return {
    /** The single-use link that opens the conversation again in /chat, with the inbox's site key for its environment. */
    async continueUrl(conversationId: number, recipient: DigestRecipient): Promise<string | undefined> {
      if (!publicUrl) return undefined;
      const [site] = await sql.query<{ key: string }>(
        'SELECT key FROM site_keys WHERE inbox_id = $1 AND environment = $2 AND revoked_at IS NULL ORDER BY created_at LIMIT 1',
        [recipient.inboxId, recipient.environment],
      );
      const token = newEmailToken();
      const at = now();
      const expiresAt = new Date(at.getTime() + CONTINUATION_TTL_MS);
      await keepContinuation(sql, { hash: emailTokenHash(token), conversationId, now: at, expiresAt });
      // The token rides in the fragment, which browsers never send to a server (nor to its logs).
      const query = site ? `?site_key=${encodeURIComponent(site.key)}` : '';
      return `${publicUrl}/chat${query}#continue=${token}`;
    },

    /** The one-click unsubscribe address of a digest (List-Unsubscribe); undefined without PUBLIC_URL. */
    async unsubscribeUrl(conversationId: number): Promise<string | undefined> {
      if (!publicUrl) return undefined;
      const token = newEmailToken();
      await keepUnsubscribeToken(sql, { hash: emailTokenHash(token), conversationId, now: now() });
      return `${publicUrl}/v1/email-unsubscribe?token=${token}`;
    },

    /** A reply address for the customer's answer; undefined without MAIL_REPLY_DOMAIN. */
    async replyTo(conversationId: number, recipient: DigestRecipient): Promise<string | undefined> {
      if (!settings.replyDomain) return undefined;
      const token = newEmailToken();
      const at = now();
      const expiresAt = new Date(at.getTime() + REPLY_TOKEN_TTL_MS);
      await keepReplyToken(sql, {
        hash: emailTokenHash(token),
        conversationId,
        sentTo: recipient.email,
        now: at,
        expiresAt,
      });
      return replyAddress(token, settings.replyDomain);
    },
  };
}
