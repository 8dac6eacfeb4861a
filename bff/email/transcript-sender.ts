/**
 * Sends the transcripts customers asked for, through the same SMTP transport and outbox rules as
 * the digests: a transcript is claimed with a lease (one node sends it), marked sent only once the
 * SMTP server took it, and a failure is tried again with the digests' back-off.
 */
import { randomUUID } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import type { Logger, Sql } from '../../shared/server/index.ts';
import { LEASE_MS, MOST_ATTEMPTS, RETRY_DELAYS_MS } from './digest-sender.ts';
import { digestRecipient } from './email-store.ts';
import type { EmailSettings } from './email-settings.ts';
import { composeTranscript } from './transcript-composition.ts';
import {
  claimDueTranscript,
  markTranscriptSent,
  postponeTranscript,
  transcriptMessages,
  type ClaimedTranscript,
} from './transcript-store.ts';

export interface TranscriptSenderDeps {
  sql: Sql;
  logger: Logger;
  now: () => Date;
  settings: Pick<EmailSettings, 'from' | 'replyDomain'>;
  transport: Pick<Transporter, 'sendMail'>;
}

export function createTranscriptSender({ sql, logger, now, settings, transport }: TranscriptSenderDeps) {
  const owner = randomUUID();

  async function send(claimed: ClaimedTranscript): Promise<void> {
    const shop = await digestRecipient(sql, claimed.conversationId);
    const messages = await transcriptMessages(sql, claimed.conversationId, claimed.upToId);
    // The conversation was forgotten meanwhile, or holds nothing to send: nothing goes out.
    if (!shop || messages.length === 0) return;
    const email = composeTranscript(shop, messages);
    await transport.sendMail({
      from: settings.from,
      to: claimed.sentTo,
      subject: email.subject,
      text: email.text,
      html: email.html,
      // The same transcript sent again after a crash has the same Message-ID, which mail clients show once.
      messageId: `<transcript.${claimed.id}.${shop.uuid}@${settings.replyDomain ?? 'parley.invalid'}>`,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
    logger.info({ conversation: shop.uuid, messages: messages.length }, 'e-mailed a transcript the customer asked for');
  }

  async function failed(claimed: ClaimedTranscript, error: unknown): Promise<void> {
    const giveUp = claimed.attempts + 1 >= MOST_ATTEMPTS;
    const delay = RETRY_DELAYS_MS[Math.min(claimed.attempts, RETRY_DELAYS_MS.length - 1)]!;
    logger.warn({ err: error, transcript: claimed.id, giveUp }, 'a transcript e-mail failed');
    await postponeTranscript(sql, { id: claimed.id, owner, dueAt: new Date(now().getTime() + delay), giveUp });
  }

  return {
    /** Sends every transcript that is due now; gives how many were handled. */
    async sendDue(): Promise<number> {
      let handled = 0;
      for (;;) {
        const at = now();
        const claimed = await claimDueTranscript(sql, {
          owner,
          now: at,
          leaseUntil: new Date(at.getTime() + LEASE_MS),
        });
        if (!claimed) return handled;
        handled += 1;
        try {
          await send(claimed);
          await markTranscriptSent(sql, claimed.id, owner, now());
        } catch (error) {
          await failed(claimed, error);
        }
      }
    },
  };
}

export type TranscriptSender = ReturnType<typeof createTranscriptSender>;
