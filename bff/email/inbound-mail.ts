/**
 * An e-mail reply, from the SMTP listener or `POST /inbound/email`, taken into its conversation:
 * parsed (mailparser), refused when it is a loop (an auto-reply, a bounce), names no live reply
 * token or comes in a flood, stripped of its quoted history, then kept as the customer's message
 * through the widget's own sending, with its files checked as the widget's uploads are
 * (`inbound-attachments.ts`) — or, from a sender other than the address the digest went to, as a
 * private note for the team that never reaches the AI. A reply to a resolved conversation reopens
 * it for people, as a person's reopening from the console does (`reopenForPeople`: the console and
 * the helpdesk webhooks are told); one from another sender does not: it stays a note.
 */
import { createHash } from 'node:crypto';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { ParleyError } from '../../shared/index.ts';
import type { RateLimiter } from '../../shared/server/index.ts';
import { findConversationById } from '../store/conversations.ts';
import { findReplyToken } from './email-store.ts';
import { INBOUND_MAX_BYTES } from './email-settings.ts';
import { emailTokenHash, replyTokenOf } from './email-tokens.ts';
import { stripQuotedReply } from './reply-text.ts';
import { createReplyKeeping, type ReplyKeepingDeps } from './inbound-keeping.ts';

/** What the SMTP session knew of a mail before its content: the envelope sender (empty for a bounce) and recipients. */
export interface Envelope {
  mailFrom: string;
  recipients: readonly string[];
}

/** Why a mail was not taken. Nothing was changed for any of them, and no one is answered. */
export type InboundRefusal =
  'too_large' | 'malformed' | 'auto_reply' | 'bounce' | 'unknown_recipient' | 'rate_limited' | 'empty';

export type InboundOutcome =
  | { taken: 'message' | 'note'; conversation: string; refused?: undefined }
  | { taken?: undefined; refused: InboundRefusal };

export interface InboundMailDeps extends ReplyKeepingDeps {
  limiter: RateLimiter;
  replyDomain: string;
}

/** E-mails one sender may send in a minute before the next are refused (a loop or a flood). */
export const MAILS_PER_SENDER_PER_MINUTE = 10;
/** The longest reply kept, as the widget's longest message. */
const MOST_CHARACTERS = 150_000;

const firstAddress = (field: AddressObject | AddressObject[] | undefined): string[] =>
  [field ?? []].flat().flatMap((object) => object.value.map((entry) => entry.address ?? ''));

/** RFC 3834 auto-replies, and the Precedence of lists and vacation notices. */
function isAutoReply(mail: ParsedMail): boolean {
  const submitted = String(mail.headers.get('auto-submitted') ?? 'no')
    .trim()
    .toLowerCase();
  const precedence = String(mail.headers.get('precedence') ?? '')
    .trim()
    .toLowerCase();
  return (
    submitted !== 'no' ||
    ['bulk', 'auto_reply', 'list', 'junk'].includes(precedence) ||
    mail.headers.has('x-autoreply') ||
    mail.headers.has('x-autorespond')
  );
}

/** A delivery report: an empty return path, or from a mailer daemon. */
function isBounce(mail: ParsedMail, from: string, envelope: Envelope | undefined): boolean {
  const returnPath = mail.headers.get('return-path');
  const emptyReturnPath =
    (envelope !== undefined && envelope.mailFrom === '') ||
    (typeof returnPath === 'string' && /^<?\s*>?$/.test(returnPath.trim())) ||
    (returnPath !== undefined &&
      typeof returnPath === 'object' &&
      firstAddress(returnPath as AddressObject).every((a) => !a));
  return emptyReturnPath || /^(mailer-daemon|postmaster)@/i.test(from);
}

/** The reply token among the mail's recipients (the envelope's, else its headers'). */
function tokenOf(mail: ParsedMail, envelope: Envelope | undefined, domain: string): string | undefined {
  const delivered = ['delivered-to', 'x-original-to'].map((name) => String(mail.headers.get(name) ?? ''));
  const recipients = envelope?.recipients ?? [...firstAddress(mail.to), ...firstAddress(mail.cc), ...delivered];
  for (const recipient of recipients) {
    const token = replyTokenOf(recipient, domain);
    if (token) return token;
  }
  return undefined;
}

async function parse(raw: Buffer): Promise<ParsedMail | undefined> {
  try {
    return await simpleParser(raw, { skipHtmlToText: false, skipImageLinks: true, skipTextToHtml: true });
  } catch {
    return undefined;
  }
}

export function createInboundMail(deps: InboundMailDeps) {
  const { sql, logger, now, limiter, replyDomain } = deps;
  const keeping = createReplyKeeping(deps);

  return {
    /** Takes one raw mail; `envelope` is the SMTP session's, when it came by SMTP. */
    async take(raw: Buffer, envelope?: Envelope): Promise<InboundOutcome> {
      if (raw.length > INBOUND_MAX_BYTES) return { refused: 'too_large' };
      const mail = await parse(raw);
      const from = (mail && firstAddress(mail.from)[0]?.toLowerCase()) || '';
      if (!mail || !from || mail.headerLines.length === 0) return { refused: 'malformed' };
      if (isAutoReply(mail)) return { refused: 'auto_reply' };
      if (isBounce(mail, from, envelope)) return { refused: 'bounce' };
      const token = tokenOf(mail, envelope, replyDomain);
      const found = token && (await findReplyToken(sql, emailTokenHash(token), now()));
      if (!found) return { refused: 'unknown_recipient' };
      const conversation = await findConversationById(sql, found.conversationId);
      if (!conversation) return { refused: 'unknown_recipient' };
      const decision = await limiter.consume(`email-sender:${from}`, MAILS_PER_SENDER_PER_MINUTE, now());
      if (!decision.allowed) return { refused: 'rate_limited' };
      const text = stripQuotedReply(mail.text ?? '').slice(0, MOST_CHARACTERS);
      if (!text && mail.attachments.length === 0) return { refused: 'empty' };
      // The same mail delivered twice (a provider's retry, SMTP and the route) is kept once.
      const messageId = `email.${createHash('sha256')
        .update(mail.messageId ?? raw)
        .digest('hex')
        .slice(0, 40)}`;
      const outcome = { conversation: conversation.uuid };
      if (from !== found.sentTo.toLowerCase()) {
        const note = `Reply by e-mail from ${from}, not from the customer's address (unverified; not shown to the AI):\n\n${text}`;
        // It never reopens a resolved conversation either: only the customer's own address does that.
        await keeping.note({ conversation, mail, messageId, text: note });
        logger.info({ conversation: conversation.uuid }, 'an e-mail reply from another sender was kept as a note');
        return { taken: 'note', ...outcome };
      }
      try {
        await keeping.message({ conversation, mail, messageId, text }, from);
        return { taken: 'message', ...outcome };
      } catch (error) {
        // A suspended account's conversation takes nothing, as from the widget.
        if (error instanceof ParleyError && error.code === 'not_found') return { refused: 'unknown_recipient' };
        throw error;
      }
    },
  };
}

export type InboundMail = ReturnType<typeof createInboundMail>;
