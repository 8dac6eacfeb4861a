/**
 * The words of a transcript e-mail (the widget's "E-mail me this conversation"): every message the
 * customer and the shop exchanged, oldest first, as plain text and as HTML with the shop's name,
 * logo and colour. Pure: everything anyone wrote is escaped before it goes into the HTML.
 */
import { escapeHtml, safeColor, safeLogo } from './digest-composition.ts';
import type { DigestRecipient } from './email-store.ts';
import type { TranscriptMessage } from './transcript-store.ts';

export type TranscriptShop = Pick<DigestRecipient, 'shopName' | 'shopColor' | 'shopLogoUrl'>;

const speaker = (message: TranscriptMessage, shopName: string): string =>
  message.author === 'customer'
    ? 'You'
    : (message.authorName ?? (message.author === 'ai' ? `${shopName} assistant` : shopName));

/** The transcript of `messages` for the shop's customer, in both forms. */
export function composeTranscript(
  shop: TranscriptShop,
  messages: readonly TranscriptMessage[],
): { subject: string; text: string; html: string } {
  const { shopName } = shop;
  const when = (message: TranscriptMessage) => message.createdAt.toISOString().slice(0, 16).replace('T', ' ');
  const text = [
    `Your conversation with ${shopName}, as you asked (times in UTC):`,
    '',
    ...messages.flatMap((message) => [`${speaker(message, shopName)} (${when(message)}):`, message.text, '']),
  ].join('\n');
  const color = safeColor(shop.shopColor);
  const logo = safeLogo(shop.shopLogoUrl);
  const heading = `${logo ? `<img src="${escapeHtml(logo)}" alt="" width="32" height="32" style="vertical-align:middle;border-radius:4px"> ` : ''}${escapeHtml(shopName)}`;
  const bubbles = messages
    .map((message) => {
      const mine = message.author === 'customer';
      return (
        `<p style="margin:0 0 4px;color:#555;font-size:13px;text-align:${mine ? 'right' : 'left'}">${escapeHtml(speaker(message, shopName))} · ${when(message)} UTC</p>` +
        `<div style="margin:0 0 16px;padding:10px 14px;background:${mine ? '#e8eefc' : '#f3f4f6'};border-radius:10px;white-space:pre-wrap">${escapeHtml(message.text)}</div>`
      );
    })
    .join('\n');
  const html = `<!doctype html>
<html><body style="font-family:system-ui,sans-serif;color:#111;max-width:560px;margin:0 auto;padding:16px">
<h1 style="font-size:18px;border-bottom:3px solid ${color};padding-bottom:8px">${heading}</h1>
<p style="color:#555">Your conversation, as you asked.</p>
${bubbles}
</body></html>
`;
  return { subject: `Your conversation with ${shopName}`, text, html };
}
