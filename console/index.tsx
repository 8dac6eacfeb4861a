import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { AvailableSwitch } from './components/available-switch.tsx';
import { CallDock } from './components/call-dock.tsx';
import { ContactSidebar } from './components/contact-sidebar.tsx';
import { ConversationTools } from './components/conversation-tools.tsx';
import { ConversationList } from './components/conversation-list.tsx';
import { ConversationView } from './components/conversation-view.tsx';
import { administers, LazyReports } from './components/lazy-reports.tsx';
import { LazyFindings } from './components/lazy-findings.tsx';
import { SignIn } from './components/sign-in.tsx';
import { ShortcutHelp, useShortcuts } from './components/shortcuts.tsx';
import { resumeSession } from './api.ts';
import { DeskStore, type DeskState } from './desk-store.ts';
import { CONSOLE_CSS } from './styles.ts';
import type { Session } from './types.ts';

/**
 * The agent console (`/console`): people sign in, see the conversations of their inboxes live,
 * and answer the customers the AI handed over. It talks only to the Application API and the
 * `/desk` socket. The session's token is kept by the browser in an HttpOnly cookie that no script
 * reads: each tab resumes it (`POST /api/v1/sessions/resume`) and holds the token in memory only.
 */

type Page = 'conversations' | 'findings' | 'reports';

/** The console's pages: Reports for the account's administrators only (the BFF refuses anyone else). */
function PageNav({ page, setPage, reports }: { page: Page; setPage: (page: Page) => void; reports: boolean }) {
  const current = (which: Page) => (page === which ? 'page' : undefined);
  return (
    <nav class="pages" aria-label="Pages">
      <button type="button" aria-current={current('conversations')} onClick={() => setPage('conversations')}>
        Conversations
      </button>
      <button type="button" aria-current={current('findings')} onClick={() => setPage('findings')}>
        Findings
      </button>
      {reports && (
        <button type="button" aria-current={current('reports')} onClick={() => setPage('reports')}>
          Reports
        </button>
      )}
    </nav>
  );
}

function Shift({ store }: { store: DeskStore }) {
  const [state, setState] = useState<DeskState>(store.state);
  const [now, setNow] = useState(Date.now());
  const [page, setPage] = useState<Page>('conversations');
  const reports = page !== 'conversations';
  const [help, setHelp] = useState(false);
  useShortcuts(store, () => setHelp(true));
  useEffect(() => {
    const unsubscribe = store.subscribe(() => setState(store.state));
    void store.start();
    // Waiting times move on without a reload.
    const clock = setInterval(() => setNow(Date.now()), 30_000);
    return () => {
      unsubscribe();
      clearInterval(clock);
    };
  }, [store]);
  const me = state.session.user;
  const opened = (id: number) => {
    setPage('conversations');
    void store.open(id);
  };
  return (
    <div class={`shift${state.selected ? ' has-selection' : ''}`}>
      <header class="top">
        <p class="brand">
          Parley <span class="muted">· {state.accountName}</span>
        </p>
        <p class={`connection${state.connected ? ' live' : ''}`} role="status">
          {state.connected ? 'Live' : 'Connecting…'}
        </p>
        <label class="check">
          <input
            type="checkbox"
            checked={state.alerts}
            onChange={(event) => void store.setAlerts((event.currentTarget as HTMLInputElement).checked)}
          />{' '}
          Alert me (sound, notification) when a customer waits
        </label>
        <PageNav page={page} setPage={setPage} reports={administers(state.session, state.accountId)} />
        <p class="me">{me.display_name ?? me.name}</p>
        <AvailableSwitch store={store} available={state.available} />
        <button type="button" onClick={() => void store.signOut()}>
          Sign out
        </button>
      </header>
      {state.lost && (
        <p class="banner offline" role="status">
          Connection lost: reconnecting… New messages appear here when it is back, without a reload.
        </p>
      )}
      <CallDock token={state.session.access_token} accountId={state.accountId} onOpen={opened} />
      <ShortcutHelp open={help} onClose={() => setHelp(false)} />
      {state.error && (
        <p class="error banner" role="alert">
          {state.error}
        </p>
      )}
      {page === 'reports' && <LazyReports session={state.session} accountId={state.accountId} />}
      {page === 'findings' && <LazyFindings session={state.session} accountId={state.accountId} onOpen={opened} />}
      {!reports && <ConversationList state={state} store={store} now={now} />}
      {!reports && (
        <main class="main">
          {state.selected ? (
            <>
              <button type="button" class="back link" onClick={() => void store.open(undefined)}>
                ← Conversations
              </button>
              <ConversationTools state={state} store={store} />
              <ConversationView state={state} store={store} />
            </>
          ) : (
            <p class="empty placeholder">Choose a conversation.</p>
          )}
        </main>
      )}
      {state.selected && !reports && <ContactSidebar state={state} store={store} now={now} />}
    </div>
  );
}

function Console() {
  const [session, setSession] = useState<Session | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [store, setStore] = useState<DeskStore | undefined>();
  // Until the cookie has answered, nothing shows (no sign-in form that flashes for a person signed in).
  const [resuming, setResuming] = useState(() => !location.hash.includes('sign_in_token='));
  useEffect(() => {
    if (!resuming) return;
    void resumeSession().then((resumed) => {
      setSession(resumed);
      setResuming(false);
    });
  }, []);

  useEffect(() => {
    if (!session) return;
    const account = session.user.accounts[0];
    if (!account) {
      setNotice('You are not a person of any account yet: ask your administrator to add you.');
      setSession(undefined);
      return;
    }
    const made = new DeskStore(session, account.id, () => {
      setNotice('You have been signed out.');
      setSession(undefined);
    });
    setStore(made);
    return () => {
      made.close();
      setStore(undefined);
    };
  }, [session]);

  if (resuming) return null;
  if (!session) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(signedIn) => {
          setNotice(undefined);
          setSession(signedIn);
        }}
      />
    );
  }
  return store ? <Shift store={store} /> : null;
}

const sheet = new CSSStyleSheet();
sheet.replaceSync(CONSOLE_CSS);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
render(<Console />, document.getElementById('console')!);
