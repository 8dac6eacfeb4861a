import { useEffect, useState } from 'preact/hooks';
import type { DeskApi } from '../api.ts';
import type { DeskFinding } from '../types.ts';

/**
 * The Findings page (issue 29): what the AI engine's monitors found in the conversations the person
 * may see (agents: their inboxes), newest first — the monitor, the severity, the words found — with
 * a link that opens the conversation. Loaded as a chunk of its own when the page is first opened.
 */
const FINDINGS_CSS = `
.findings{grid-area:list / list / list / side;overflow:auto;padding:1rem 1.25rem;display:grid;gap:1rem;align-content:start}
.findings h1{margin:0;font-size:1.3rem}
.findings ul{list-style:none;margin:0;padding:0;display:grid;gap:.6rem}
.finding{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:.75rem;display:grid;gap:.3rem}
.finding .head{display:flex;gap:.6rem;flex-wrap:wrap;align-items:baseline}
.finding blockquote{margin:0;padding-left:.6rem;border-left:3px solid var(--line)}
.severity{font-size:.8rem;font-weight:600;border-radius:999px;padding:.05rem .5rem;border:1px solid currentColor}
.severity.high{color:#a3261b}.severity.medium{color:#8a5300}.severity.low{color:var(--muted)}
`;

let adopted = false;
function adoptSheet(): void {
  if (adopted) return;
  adopted = true;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(FINDINGS_CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

const SEVERITIES = ['', 'high', 'medium', 'low'] as const;

const when = (epochSeconds: number) =>
  new Date(epochSeconds * 1000).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });

function FindingItem({ finding, onOpen }: { finding: DeskFinding; onOpen: (conversationId: number) => void }) {
  const monitor = finding.monitor_name ?? finding.monitor_id;
  return (
    <li class="finding">
      <p class="head">
        <strong>{monitor}</strong>
        <span class={`severity ${finding.severity}`}>{finding.severity}</span>
        <span class="muted">{when(finding.created_at)}</span>
      </p>
      <blockquote>{finding.excerpt}</blockquote>
      <p>
        <button type="button" class="link" onClick={() => onOpen(finding.conversation_id)}>
          Open conversation {finding.conversation_id}
        </button>
      </p>
    </li>
  );
}

export function FindingsPage({ api, onOpen }: { api: DeskApi; onOpen: (conversationId: number) => void }) {
  const [severity, setSeverity] = useState('');
  const [findings, setFindings] = useState<DeskFinding[] | undefined>();
  const [next, setNext] = useState<string | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | undefined>();
  adoptSheet();

  const load = async (after: string | undefined, kept: DeskFinding[]) => {
    try {
      const page = await api.findings({ ...(after ? { after } : {}), ...(severity ? { severity } : {}) });
      setFindings([...kept, ...page.payload]);
      setNext(page.next);
      setMore(page.has_more);
      setError(undefined);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  useEffect(() => {
    setFindings(undefined);
    void load(undefined, []);
  }, [severity]);

  return (
    <section class="findings" aria-labelledby="findings-title">
      <h1 id="findings-title">Findings</h1>
      <p class="muted">
        What the AI's monitors flagged in your conversations, newest first. Customers never see these.
      </p>
      <label class="check">
        Severity{' '}
        <select value={severity} onChange={(event) => setSeverity((event.currentTarget as HTMLSelectElement).value)}>
          {SEVERITIES.map((value) => (
            <option value={value}>{value || 'all'}</option>
          ))}
        </select>
      </label>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {findings === undefined && !error && <p class="muted">Loading…</p>}
      {findings?.length === 0 && <p class="muted">Nothing flagged.</p>}
      {findings && findings.length > 0 && (
        <ul aria-label="Findings">
          {findings.map((finding) => (
            <FindingItem key={finding.id} finding={finding} onOpen={onOpen} />
          ))}
        </ul>
      )}
      {more && next && (
        <button type="button" onClick={() => void load(next, findings ?? [])}>
          Show older findings
        </button>
      )}
    </section>
  );
}
