/**
 * Sends the digests that are due: one e-mail per conversation with the answers its customer has
 * not read, to the customer's address, through SMTP_URL (nodemailer). The outbox rules hold: a
 * digest is claimed with a lease before it is sent (one node sends it), taken away only once the
 * SMTP server accepted it, and a failure is tried again with back-off.
 */
import { randomUUID } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import type { Logger, Sql } from '../../shared/server/index.ts';
import { composeDigest } from './digest-composition.ts';
import {
  claimDueDigest,
  digestRecipient,
  finishDigest,
  hasAnswersAfter,
  noteDigestDue,
  postponeDigest,
  unreadAnswers,
  type ClaimedDigest,
  type DigestRecipient,
} from './email-store.ts';
import type { EmailSettings } from './email-settings.ts';
import { createDigestLinks } from './digest-links.ts';

/** Whether the customer of a conversation has the chat open now (a widget tab or a Client API socket). */
export type CustomerConnected = (customer: Pick<DigestRecipient, 'inboxId' | 'customerRef'>) => Promise<boolean>;

export interface DigestSenderDeps {
  sql: Sql;
  logger: Logger;
  now: () => Date;
  settings: Pick<EmailSettings, 'from' | 'replyDomain' | 'digestDelayS'>;
  transport: Pick<Transporter, 'sendMail'>;
  /** Where customers reach the BFF (PUBLIC_URL): the continuation link is made with it; unset: no link. */
  publicUrl: string | undefined;
  /** Unset: only what the customer has read is left out. */
  customerConnected?: CustomerConnected | undefined;
}

/** A send holds its digest this long; only a node that died lets it lapse. */
export const LEASE_MS = 120_000;
/** Waits after failed sends; the last one repeats until the digest is given up. */
export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000, 3_600_000];
/** A digest that failed this often (about a day) is given up and logged. */
export const MOST_ATTEMPTS = 28;

/** A failed send: tried again after a back-off, or given up (and logged) after about a day. */
async function recordFailure(
  { sql, logger, now }: Pick<DigestSenderDeps, 'sql' | 'logger' | 'now'>,
  owner: string,
  digest: ClaimedDigest,
  error: unknown,
): Promise<void> {
  if (digest.attempts + 1 >= MOST_ATTEMPTS) {
    logger.error(
      { err: error, conversation: digest.conversationId },
      'a digest e-mail was given up after a day of failures',
    );
    await finishDigest(sql, digest.conversationId, owner);
    return;
  }
  const delay = RETRY_DELAYS_MS[Math.min(digest.attempts, RETRY_DELAYS_MS.length - 1)]!;
  logger.warn({ err: error, conversation: digest.conversationId, retryInMs: delay }, 'a digest e-mail failed');
  await postponeDigest(sql, {
    conversationId: digest.conversationId,
    owner,
    dueAt: new Date(now().getTime() + delay),
  });
}

export function createDigestSender(deps: DigestSenderDeps) {
  const { sql, logger, now, settings } = deps;
  const owner = randomUUID();

  const links = createDigestLinks(deps);

  /** Sends one claimed digest; gives the id of the last answer it carried (undefined: nothing was to be sent). */
  async function sendDigest(digest: ClaimedDigest): Promise<number | undefined> {
    const recipient = await digestRecipient(sql, digest.conversationId);
    if (!recipient) return undefined;
    if (await deps.customerConnected?.(recipient)) return undefined;
    const answers = await unreadAnswers(sql, digest.conversationId, digest.afterId);
    if (answers.length === 0) return undefined;
    const replyToAddress = await links.replyTo(digest.conversationId, recipient);
    const link = await links.continueUrl(digest.conversationId, recipient);
    const unsubscribeUrl = await links.unsubscribeUrl(digest.conversationId);
    const email = composeDigest(recipient, answers, { continueUrl: link, repliesTaken: Boolean(replyToAddress) });
    const lastId = answers.at(-1)!.id;
    const domain = settings.replyDomain ?? 'parley.invalid';
    await deps.transport.sendMail({
      from: settings.from,
      to: recipient.email,
      ...(replyToAddress ? { replyTo: replyToAddress } : {}),
      subject: email.subject,
      text: email.text,
      html: email.html,
      // The same digest sent again after a crash has the same Message-ID, which mail clients show once.
      messageId: `<digest.${recipient.uuid}.${lastId}@${domain}>`,
      // RFC 3834: an automatic message, so auto-responders do not answer it; RFC 8058: one-click unsubscribe.
      headers: {
        'Auto-Submitted': 'auto-generated',
        ...(unsubscribeUrl && { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }),
      },
      ...(unsubscribeUrl && { list: { unsubscribe: unsubscribeUrl } }),
    });
    logger.info({ conversation: recipient.uuid, answers: answers.length }, 'e-mailed the answers the customer missed');
    return lastId;
  }

  /** Ends a digest; answers that came while it was being sent make a digest of their own. */
  async function finish(digest: ClaimedDigest, sentUpTo: number | undefined): Promise<void> {
    await sql.transaction(async (tx) => {
      await finishDigest(tx, digest.conversationId, owner);
      if (sentUpTo !== undefined && (await hasAnswersAfter(tx, digest.conversationId, sentUpTo))) {
        const at = now();
        const dueAt = new Date(at.getTime() + settings.digestDelayS * 1000);
        await noteDigestDue(tx, { conversationId: digest.conversationId, afterId: sentUpTo, dueAt, now: at });
      }
    });
  }

  return {
    /** Sends every digest that is due now, one after another; gives how many were handled. */
    async sendDue(): Promise<number> {
      let handled = 0;
      for (;;) {
        const at = now();
        const digest = await claimDueDigest(sql, { owner, now: at, leaseUntil: new Date(at.getTime() + LEASE_MS) });
        if (!digest) return handled;
        handled += 1;
        try {
          await finish(digest, await sendDigest(digest));
        } catch (error) {
          await recordFailure(deps, owner, digest, error);
        }
      }
    },
  };
}

export type DigestSender = ReturnType<typeof createDigestSender>;
