/**
 * The parts of the chat no one needs before the first message is shown: the list of
 * conversations, the survey and the pre-chat form, with their styles. They load on demand, which
 * keeps the first download inside its budget (DESIGN.md "Budgets").
 */
export { ConversationList } from './components/conversation-list/conversation-list.tsx';
export { Survey } from './components/survey/survey.tsx';
export { PrechatForm } from './components/prechat-form/prechat-form.tsx';
import { en } from './i18n/en.ts';
import { enOnDemand } from './i18n/en-on-demand.ts';

// Their English comes with them, before any of them shows it.
Object.assign(en, enOnDemand);

export const CSS = `
.list,.prechat,.ended{padding:14px;display:flex;flex-direction:column;gap:10px;overflow-y:auto}
.list{flex:1}
.list ul{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:6px}
.conversation{width:100%;text-align:start;padding:10px 12px;border-radius:10px;border:1px solid var(--p-border);background:var(--p-bg);color:var(--p-text);display:flex;flex-direction:column;gap:2px}
.preview{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.details{font-size:12px;color:var(--p-muted)}
.count{margin-inline-start:8px;font-weight:700;color:var(--p-text)}
.empty{color:var(--p-muted);text-align:center}
.prechat{flex:1}
.prechat p{margin:0}
.field{display:flex;flex-direction:column;gap:4px;font-size:14px}
.survey fieldset{border:0;margin:0;padding:0}
.survey legend{margin-bottom:6px}
.survey{display:flex;flex-direction:column;gap:8px}
.stars{display:flex;gap:4px}
.star{font-size:24px;background:none;border:1px solid var(--p-border);border-radius:8px;color:var(--p-text);min-width:40px;min-height:40px}
.star[aria-pressed=true]{border-color:var(--p-primary)}
.survey-thanks{margin:0;text-align:center}
`;
