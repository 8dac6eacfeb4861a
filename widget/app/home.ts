/**
 * The home chunk: what the chat shows before the first message (the welcome, suggested questions,
 * the help search and its articles), with its styles and English. It loads when an empty
 * conversation shows, which keeps the first download inside its budget (issue 16).
 */
export { Home } from './components/home/home.tsx';
import { en } from './i18n/en.ts';
import { enHome } from './i18n/en-home.ts';

Object.assign(en, enHome);

export const CSS = `
.home{flex:1;overflow-y:auto;padding:var(--s3) 14px;display:flex;flex-direction:column;gap:var(--s3)}
.home h3{margin:0;font-size:var(--f-lg);outline:none}
.home p{margin:0}
.tagline{color:var(--p-muted)}
.away{padding:var(--s2) var(--s3);border-radius:var(--r-md);background:var(--p-bubble);font-size:var(--f-sm)}
.home>.bubble{align-self:flex-start;max-width:85%}
.asks,.found{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:6px;align-items:flex-start}
.asks button{padding:6px 12px;border-radius:16px;border:1px solid var(--p-muted);background:var(--p-bg);color:var(--p-text);text-align:start}
.found button{width:100%;text-align:start;padding:var(--s2) var(--s3);border:1px solid var(--p-border);border-radius:var(--r-sm);background:var(--p-bg);color:var(--p-text)}
.found li{align-self:stretch}
.home input{flex:none}
.home-actions{display:flex;justify-content:space-between;align-items:center;gap:var(--s2)}
`;
