/**
 * `POST /v1/email-unsubscribe?token=…`: the one-click unsubscribe of RFC 8058. A digest names this
 * address in `List-Unsubscribe` with `List-Unsubscribe-Post: List-Unsubscribe=One-Click`, and the
 * customer's mail client posts that form here; the conversation's e-mails stop. Only a POST does it,
 * so a link scanner that follows the address changes nothing.
 */
import { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { emailTokenHash } from './email-tokens.ts';
import { unsubscribe } from './unsubscribe-tokens.ts';

const UnsubscribeQuery = z.strictObject({
  token: z
    .string()
    .regex(/^[0-9a-f]{40}$/, 'the 40 hexadecimal digits of the unsubscribe address')
    .describe("The token of the digest's List-Unsubscribe address."),
});

const OneClick = z.strictObject({
  'List-Unsubscribe': z.literal('One-Click').describe('What RFC 8058 has mail clients send.'),
});

const Unsubscribed = z.object({ unsubscribed: z.literal(true) });

export function addUnsubscribeRoutes(routes: ApiRoutes, { sql, now }: { sql: Sql; now: () => Date }): void {
  routes.add(
    {
      method: 'post',
      path: '/v1/email-unsubscribe',
      tag: 'Sessions',
      summary: "Stop a conversation's e-mails (one click, RFC 8058)",
      description:
        "What a mail client posts to a digest's List-Unsubscribe address: the conversation's address is forgotten and nothing more is e-mailed for it. The customer can give an address again in the widget.",
      query: UnsubscribeQuery,
      body: OneClick,
      form: true,
      responses: { 200: { description: 'No more e-mails for this conversation.', schema: Unsubscribed } },
      errors: ['not_found'],
    },
    async (ctx, { query }) => {
      if (!(await unsubscribe(sql, emailTokenHash(query.token), now())))
        throw new ParleyError('not_found', 'This unsubscribe address is unknown or has expired.');
      ctx.body = { unsubscribed: true } satisfies z.infer<typeof Unsubscribed>;
    },
  );
}
