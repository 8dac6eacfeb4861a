/**
 * `POST /inbound/email`: a raw MIME message from a mail provider's inbound webhook, signed with
 * INBOUND_EMAIL_SECRET, taken as the SMTP listener takes one.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import { readRawBody, type ApiRoutes } from '../../shared/server/index.ts';
import { INBOUND_MAX_BYTES } from './email-settings.ts';
import type { InboundMail } from './inbound-mail.ts';

/** The signature header: `sha256=<hex HMAC-SHA256 of the raw body with INBOUND_EMAIL_SECRET>`. */
export const SIGNATURE_HEADER = 'X-Parley-Signature';

/** The signature of `body` as the header carries it (what a provider's relay computes). */
export const inboundSignature = (secret: string, body: Buffer | string): string =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

function signatureHolds(secret: string, body: Buffer, header: string): boolean {
  const expected = Buffer.from(inboundSignature(secret, body));
  const given = Buffer.from(header.trim().toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const Taken = z.object({
  result: z
    .enum(['message', 'note', 'ignored'])
    .describe(
      "`message`: the customer's message; `note`: kept for the team only (another sender, or a resolved conversation); `ignored`: an auto-reply, a bounce, an unknown or expired reply address, or no words of its own — nothing changed.",
    ),
  reason: z.string().optional(),
});

export function addInboundEmailRoutes(routes: ApiRoutes, inbound: InboundMail | undefined, secret: string | undefined) {
  routes.add(
    {
      method: 'post',
      path: '/inbound/email',
      tag: 'E-mail',
      summary: 'Take an e-mail reply (a raw MIME message, signed)',
      description: `The body is the whole message as received (\`message/rfc822\`, at most ${INBOUND_MAX_BYTES} bytes). Header ${SIGNATURE_HEADER}: sha256=<hex HMAC-SHA256 of the raw body with INBOUND_EMAIL_SECRET>. Answers 404 when INBOUND_EMAIL_SECRET or MAIL_REPLY_DOMAIN is not set. Loops and unknown addresses are taken and ignored (200), so that a provider does not send them again.`,
      bodyLimit: INBOUND_MAX_BYTES,
      responses: { 200: { description: 'Taken, or ignored with its reason.', schema: Taken } },
      errors: ['unauthorized', 'not_found', 'unprocessable'],
    },
    async (ctx) => {
      if (!inbound || !secret) throw new ParleyError('not_found', 'This BFF takes no e-mail replies.');
      const body = await readRawBody(ctx, INBOUND_MAX_BYTES);
      if (!signatureHolds(secret, body, ctx.get(SIGNATURE_HEADER)))
        throw new ParleyError(
          'unauthorized',
          `The ${SIGNATURE_HEADER} signature is missing or does not match the body.`,
        );
      const outcome = await inbound.take(body);
      if (outcome.taken) {
        ctx.body = { result: outcome.taken };
        return;
      }
      if (outcome.refused === 'malformed')
        throw new ParleyError('unprocessable', 'The body is not an e-mail message (MIME) with a From address.');
      if (outcome.refused === 'rate_limited')
        throw new ParleyError('rate_limited', 'Too many e-mails from this sender; try again in a minute.').retryAfter(
          60,
        );
      ctx.body = { result: 'ignored', reason: outcome.refused };
    },
  );
}
