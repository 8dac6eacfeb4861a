/**
 * The parts of the chat no one needs before the first message is shown: the list of
 * conversations, the survey and the pre-chat form, with their styles. They load on demand, which
 * keeps the first download inside its budget (DESIGN.md "Budgets").
 */
export { ConversationList } from './components/conversation-list/conversation-list.tsx';
export { Survey } from './components/survey/survey.tsx';
export { PrechatForm } from './components/prechat-form/prechat-form.tsx';
export { Limited } from './components/limited/limited.tsx';
import { en } from './i18n/en.ts';
import { enOnDemand } from './i18n/en-on-demand.ts';

// Their English comes with them, before any of them shows it.
Object.assign(en, enOnDemand);

export const CSS = `
.list,.prechat{padding:14px;display:flex;flex-direction:column;gap:10px;overflow-y:auto}
.list{flex:1}
.list h3{margin:0;font-size:16px}
.list ul{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:6px}
.conversation{width:100%;text-align:start;padding:10px 12px;border-radius:10px;border:1px solid var(--p-border);background:var(--p-bg);color:var(--p-text);display:flex;flex-direction:column;gap:2px}
.preview{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;max-width:100%;font-size:14px;color:var(--p-muted)}
.details{display:flex;align-items:center;gap:8px;font-weight:600}
.tag{padding:0 6px;border:1px solid var(--p-border);border-radius:6px;font-size:12px;font-weight:400;color:var(--p-muted)}
.dot{width:10px;height:10px;margin-inline-start:auto;border-radius:50%;background:var(--p-primary)}
.limited{padding:10px 14px;background:var(--p-bubble);font-size:14px}
textarea:disabled{border-style:dashed;cursor:not-allowed}
.composer button:disabled{cursor:not-allowed}
.limited p{margin:0}
.limited a{color:inherit}
.empty{color:var(--p-muted);text-align:center}
.prechat{flex:1}
.prechat p{margin:0}
.field{display:flex;flex-direction:column;gap:4px;font-size:14px}
.survey fieldset{border:0;margin:0;padding:0;min-width:0}
.survey legend{margin-bottom:4px;font-weight:600}
.survey{display:flex;flex-direction:column;gap:8px}
.rating{display:flex;gap:6px}
.rating label{flex:1;position:relative}
.rating input{position:absolute;opacity:0;inset:0;margin:0}
.rating span{display:grid;place-items:center;height:34px;border:1px solid var(--p-border);border-radius:8px;font-weight:600;cursor:pointer}
.rating input:checked+span{background:var(--p-primary);color:var(--p-on-primary);border-color:var(--p-primary)}
.rating input:focus-visible+span{outline:3px solid var(--p-primary);outline-offset:2px}
.comment{display:flex;gap:8px;align-items:flex-end}
.survey-thanks{margin:0;text-align:center}
.ended{padding:10px 14px;gap:8px}
.ended>p{display:flex;align-items:center;justify-content:space-between;flex-wrap:wrap;gap:8px;text-align:start}
`;
