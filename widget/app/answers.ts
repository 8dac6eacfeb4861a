/**
 * The answers chunk: what formats an answer beyond its words (markdown-lite's bold, lists, code and
 * links; the card of facts; the quick-reply buttons), with their styles. The panel fetches it just
 * after the widget's first paint, long before a customer opens the chat or an answer comes; until
 * it is there a message shows as plain text, so reading and sending never wait for it. This keeps
 * the first download inside its budget (DESIGN.md "Budgets", issue 16).
 */
export { RichText } from '../../shared/rich-text.tsx';
export { Card } from './components/card/card.tsx';
export { QuickReplies } from './components/quick-replies/quick-replies.tsx';
// The place of the e-mail ask and forms (issue 32), which load their own chunk when they show.
export { MailSlot } from './components/email-form/mail-slot.tsx';

export const CSS = `
.text p+p,.text ul,.text ol{margin:6px 0 0}
.text ul,.text ol{padding-inline-start:20px}
.text code{font:13px ui-monospace,monospace;background:rgba(127,127,127,.18);padding:1px 4px;border-radius:4px}
.text a{color:inherit;text-decoration:underline}
.card{margin-top:8px;padding:8px 10px;border-radius:8px;background:var(--p-bg);border:1px solid var(--p-border)}
.card-title{margin:0 0 4px;font-weight:600}
.card dl{margin:0}
.card-row{display:flex;gap:8px;font-size:14px}
.card dt{color:var(--p-muted);min-width:72px}
.card dd{margin:0}
.choices{display:flex;flex-wrap:wrap;gap:6px;margin-top:6px}
.choice{padding:6px 12px;border-radius:16px;border:1px solid var(--p-muted);background:var(--p-bg);color:var(--p-text)}
.choice:disabled{opacity:.6}
`;
