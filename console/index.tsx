import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ContactSidebar } from './components/contact-sidebar.tsx';
import { ConversationList } from './components/conversation-list.tsx';
import { ConversationView } from './components/conversation-view.tsx';
import { administers, LazyReports } from './components/lazy-reports.tsx';
import { SignIn } from './components/sign-in.tsx';
import { DeskStore, type DeskState } from './desk-store.ts';
import { CONSOLE_CSS } from './styles.ts';
import type { Session } from './types.ts';

/**
 * The agent console (`/console`): people sign in, see the conversations of their inboxes live,
 * and answer the customers the AI handed over. It talks only to the Application API and the
 * `/desk` socket. The session is kept in this tab's sessionStorage (it ends with the tab, or after
 * 12 hours at the server).
 */
const SESSION_KEY = 'parley-console-session';

function storedSession(): Session | undefined {
  try {
    const session = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null') as Session | null;
    return session && Date.parse(session.expires_at) > Date.now() ? session : undefined;
  } catch {
    return undefined;
  }
}

function Shift({ store }: { store: DeskStore }) {
  const [state, setState] = useState<DeskState>(store.state);
  const [now, setNow] = useState(Date.now());
  const [reports, setReports] = useState(false);
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
        {administers(state.session, state.accountId) && (
          <nav class="pages" aria-label="Pages">
            <button type="button" aria-current={reports ? undefined : 'page'} onClick={() => setReports(false)}>
              Conversations
            </button>
            <button type="button" aria-current={reports ? 'page' : undefined} onClick={() => setReports(true)}>
              Reports
            </button>
          </nav>
        )}
        <p class="me">{me.display_name ?? me.name}</p>
        <button type="button" onClick={() => void store.signOut()}>
          Sign out
        </button>
      </header>
      {state.error && (
        <p class="error banner" role="alert">
          {state.error}
        </p>
      )}
      {reports && <LazyReports session={state.session} accountId={state.accountId} />}
      {!reports && <ConversationList state={state} store={store} now={now} />}
      {!reports && (
        <main class="main">
          {state.selected ? (
            <>
              <button type="button" class="back link" onClick={() => void store.open(undefined)}>
                ← Conversations
              </button>
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
  const [session, setSession] = useState<Session | undefined>(() =>
    location.hash.includes('sign_in_token=') ? undefined : storedSession(),
  );
  const [notice, setNotice] = useState<string | undefined>();
  const [store, setStore] = useState<DeskStore | undefined>();

  useEffect(() => {
    if (!session) return;
    const account = session.user.accounts[0];
    if (!account) {
      setNotice('You are not a person of any account yet: ask your administrator to add you.');
      setSession(undefined);
      return;
    }
    const made = new DeskStore(session, account.id, () => {
      sessionStorage.removeItem(SESSION_KEY);
      setNotice('You have been signed out.');
      setSession(undefined);
    });
    setStore(made);
    return () => {
      made.close();
      setStore(undefined);
    };
  }, [session]);

  if (!session) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(signedIn) => {
          sessionStorage.setItem(SESSION_KEY, JSON.stringify(signedIn));
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
