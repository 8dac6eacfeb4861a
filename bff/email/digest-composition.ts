/**
 * The words of a digest e-mail: the shop's name, the new answers, the link back into the chat and
 * a line about replying, as plain text and as HTML. Pure: everything the customer or the shop
 * wrote is escaped before it goes into the HTML.
 */
import type { DigestMessage, DigestRecipient } from './email-store.ts';

export interface DigestLinks {
  /** Opens the conversation again in the hosted /chat page (single use); undefined without PUBLIC_URL. */
  continueUrl: string | undefined;
  /** Whether a reply by e-mail reaches the conversation (a Reply-To address is set). */
  repliesTaken: boolean;
}

export interface DigestEmail {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML content and quoted attributes. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);

// The shop's colour goes into a style attribute: only a hex colour is taken, anything else is the default.
export const safeColor = (color: string): string => (/^#[0-9a-f]{3,8}$/i.test(color) ? color : '#1f3a5f');
// Only an https logo is shown: mail clients block others, and a data: or javascript: one is never wanted.
export const safeLogo = (url: string): string | undefined => (/^https:\/\/[^\s"'<>]+$/i.test(url) ? url : undefined);

const who = (message: DigestMessage, shopName: string): string =>
  message.authorName ?? (message.author === 'ai' ? `${shopName} assistant` : shopName);

/** The digest of `messages` for `recipient`, in both forms. */
export function composeDigest(
  recipient: Pick<DigestRecipient, 'shopName' | 'shopColor' | 'shopLogoUrl'>,
  messages: readonly DigestMessage[],
  links: DigestLinks,
): DigestEmail {
  const { shopName } = recipient;
  const subject =
    messages.length === 1 ? `New reply from ${shopName}` : `${messages.length} new replies from ${shopName}`;
  const closing = [
    links.continueUrl ? `Continue the conversation: ${links.continueUrl}` : undefined,
    links.repliesTaken ? 'You can also answer this e-mail: your reply goes to the same conversation.' : undefined,
  ].filter((line): line is string => line !== undefined);
  const text = [
    `${shopName} answered you:`,
    '',
    ...messages.flatMap((message) => [`${who(message, shopName)}:`, message.text, '']),
    ...closing,
    '',
  ].join('\n');
  return { subject, text, html: digestHtml(recipient, messages, links) };
}

function digestHtml(
  { shopName, shopColor, shopLogoUrl }: Pick<DigestRecipient, 'shopName' | 'shopColor' | 'shopLogoUrl'>,
  messages: readonly DigestMessage[],
  links: DigestLinks,
): string {
  const color = safeColor(shopColor);
  const logo = safeLogo(shopLogoUrl);
  const heading = `${logo ? `<img src="${escapeHtml(logo)}" alt="" width="32" height="32" style="vertical-align:middle;border-radius:4px"> ` : ''}${escapeHtml(shopName)}`;
  const bubbles = messages
    .map(
      (message) =>
        `<p style="margin:0 0 4px;color:#555;font-size:13px">${escapeHtml(who(message, shopName))}</p>` +
        `<div style="margin:0 0 16px;padding:10px 14px;background:#f3f4f6;border-radius:10px;white-space:pre-wrap">${escapeHtml(message.text)}</div>`,
    )
    .join('\n');
  const button = links.continueUrl
    ? `<p><a href="${escapeHtml(links.continueUrl)}" style="display:inline-block;padding:10px 16px;background:${color};color:#fff;border-radius:6px;text-decoration:none">Continue the conversation</a></p>`
    : '';
  const replyLine = links.repliesTaken
    ? '<p style="color:#555;font-size:13px">You can also answer this e-mail: your reply goes to the same conversation.</p>'
    : '';
  return `<!doctype html>
<html><body style="font-family:system-ui,sans-serif;color:#111;max-width:560px;margin:0 auto;padding:16px">
<h1 style="font-size:18px;border-bottom:3px solid ${color};padding-bottom:8px">${heading}</h1>
${bubbles}
${button}
${replyLine}
</body></html>
`;
}
