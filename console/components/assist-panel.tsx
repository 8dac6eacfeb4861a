/**
 * Assist (issue 29): the AI's suggested reply for the open conversation, with the articles it comes
 * from (or why there is none), and the conversation summed up in two lines. A person decides:
 * "Use suggestion" only puts the text in the reply box.
 */
import { useEffect, useState } from 'preact/hooks';
import type { AssistResponse } from '../../shared/schemas/assist.ts';
import type { DeskStore } from '../desk-store.ts';

/** The panel's own rules, adopted once beside the console's sheet (no inline style for the page's CSP to allow). */
const ASSIST_CSS = `
.assist{border-top:1px solid var(--line);padding:.6rem 1rem;background:var(--panel);display:grid;gap:.4rem;max-height:40vh;overflow:auto}
.assist h3{margin:0;font-size:.95rem}
.assist-head{display:flex;justify-content:space-between;align-items:center;gap:.5rem}
.assist-text{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;background:var(--ai);border-radius:8px;padding:.5rem .75rem}
.assist-sources{margin:0;padding-left:1.2rem;font-size:.85rem}
.assist-sources a{color:inherit}
.assist p{margin:0}
.assist-summary{margin:0;padding:.5rem 1rem;border-bottom:1px solid var(--line);background:var(--note);white-space:pre-line;font-size:.9rem}
`;
const sheet = new CSSStyleSheet();
sheet.replaceSync(ASSIST_CSS);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

/** Where the AI's help for a conversation is: being read, read, or refused (with what to tell the person). */
export type AssistState =
  | { status: 'reading'; conversationId: number }
  | { status: 'ready'; conversationId: number; help: AssistResponse }
  | { status: 'failed'; conversationId: number; message: string };

/**
 * The AI's help for a conversation, read when it opens and again when the customer writes (`asked`
 * changes) or the person asks again. What was read stays shown while it is read again.
 */
export function useAssist(store: DeskStore, conversationId: number, asked: number | undefined) {
  const [state, setState] = useState<AssistState>({ status: 'reading', conversationId });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((shown) => (shown.conversationId === conversationId ? shown : { status: 'reading', conversationId }));
    store.assist(conversationId).then(
      (help) => current && setState({ status: 'ready', conversationId, help }),
      (error: unknown) =>
        current &&
        setState({ status: 'failed', conversationId, message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [store, conversationId, asked, round]);
  // A state of the conversation before is never shown for this one.
  const shown: AssistState = state.conversationId === conversationId ? state : { status: 'reading', conversationId };
  return { state: shown, again: () => setRound((count) => count + 1) };
}

/** The conversation so far in two lines, above the transcript of a conversation people have. */
export function AssistSummary({ state }: { state: AssistState }) {
  if (state.status !== 'ready') return null;
  return (
    <p class="assist-summary" aria-label="Summary">
      {state.help.summary}
    </p>
  );
}

interface PanelProps {
  state: AssistState;
  onUse: (text: string) => void;
  onAgain: () => void;
}

/** The suggested reply and its sources, or why there is none; "Use suggestion" fills the reply box. */
export function AssistPanel({ state, onUse, onAgain }: PanelProps) {
  return (
    <section class="assist" aria-labelledby="assist-title">
      <div class="assist-head">
        <h3 id="assist-title">Assist</h3>
        <button type="button" class="link" onClick={onAgain} disabled={state.status === 'reading'}>
          Ask again
        </button>
      </div>
      {state.status === 'reading' && <p class="muted">Reading the conversation…</p>}
      {state.status === 'failed' && <p class="muted">No help just now: {state.message}</p>}
      {state.status === 'ready' && <Suggestion help={state.help} onUse={onUse} />}
    </section>
  );
}

function Suggestion({ help, onUse }: { help: AssistResponse; onUse: (text: string) => void }) {
  const { suggestion, reason } = help;
  if (!suggestion)
    return <p class="muted">No suggestion: {reason?.message ?? 'nothing in the knowledge base fits.'}</p>;
  return (
    <>
      <p class="assist-text">{suggestion.text}</p>
      <p class="muted">Sources</p>
      <ul class="assist-sources" aria-label="Sources">
        {suggestion.sources.map((source) => (
          <li key={source.title}>
            {source.url ? (
              <a href={source.url} target="_blank" rel="noreferrer">
                {source.title}
              </a>
            ) : (
              source.title
            )}
          </li>
        ))}
      </ul>
      <div>
        <button type="button" onClick={() => onUse(suggestion.text)}>
          Use suggestion
        </button>
      </div>
    </>
  );
}
