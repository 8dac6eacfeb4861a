/**
 * The e-mail chunk (issue 32): "Get the reply by e-mail?", the form that changes or removes the
 * address, and "E-mail me this conversation", with their words in every language and their
 * styles. It loads only when one of them may show (components/email-form/mail-slot.tsx), which
 * keeps the first download inside its budget.
 */
export { EmailCard } from './components/email-form/email-card.tsx';

export const CSS = `
.mail{display:flex;flex-direction:column;gap:var(--s2);margin:0;padding:var(--s2) 14px;border-top:1px solid var(--p-border);background:var(--p-bubble);font-size:var(--f-sm)}
.mail p{margin:0}
.mail-title{font-weight:600}
.mail .field{display:flex;flex-direction:column;gap:4px}
.mail .error{border-radius:var(--r-sm)}
.mail-actions{display:flex;justify-content:flex-end;align-items:center;gap:var(--s3)}
.mail-note{display:block}
`;
