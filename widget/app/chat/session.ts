import { ClientError } from '../../../shared/client-error.ts';
import type { WidgetSession } from '../../../shared/index.ts';
import type { Api } from '../api.ts';
import type { SiteStorage } from '../storage.ts';

// A tab that made a session keeps the lock this long after, until other tabs can read what it stored.
const SESSION_SETTLE_MS = 1_000;
// Renew the session this long before it expires.
const RENEW_MARGIN_MS = 5 * 60_000;

/** The widget's session with the BFF: one per device, renewed before it expires. */
export interface Sessions {
  /** The session this tab uses, once it has one. */
  current(): WidgetSession | undefined;
  /** The session, made or renewed first when needed. */
  ensure(): Promise<WidgetSession>;
  /** True when there is a session to resume: the page's verified customer, or one stored on this device. */
  known(): boolean;
  /** Forgets the session this tab uses (what is stored stays). */
  forget(): void;
  /** From now on the session is this verified customer's token (or, with none, the visitor's). */
  verify(token: string | undefined): void;
}

export function createSessions(
  api: Api,
  storage: SiteStorage,
  siteKey: string | undefined,
  verifiedToken: string | undefined,
): Sessions {
  let session: WidgetSession | undefined;
  const fresh = (candidate: WidgetSession) => Date.parse(candidate.expires_at) - Date.now() >= RENEW_MARGIN_MS;

  async function ensureNow(): Promise<WidgetSession> {
    let next = session ?? storage.getJson<WidgetSession | undefined>('session', undefined);
    if (verifiedToken && next?.token !== verifiedToken) {
      // A verified customer's token from the page: used as it is; the page gives a new one before it expires.
      const expires_at = tokenExpiry(verifiedToken);
      next = { token: verifiedToken, ttl_s: 0, expires_at, customer_ref: '', verified: true };
    } else if (!next || !fresh(next)) {
      if (!siteKey) {
        throw new ClientError(401, 'unauthorized', 'The chat is not set up: the script tag has no data-site-key.');
      }
      next = await api.createSession(siteKey, next?.verified ? undefined : next?.token);
      storage.setJson('session', next);
    }
    return (session = next);
  }

  /**
   * One tab at a time makes a session, so tabs opened together stay one visitor (Web Locks where
   * there are). The tab holding the lock gives its session back at once, and when it made a new one
   * holds the lock a moment longer: what it stored reaches other tabs lazily (localStorage is shared
   * across processes), so a tab asking meanwhile waits for it instead of making a second visitor.
   */
  async function ensure(): Promise<WidgetSession> {
    if (session && fresh(session)) return session;
    // A fresh session this device stored is used without the lock, which only keeps tabs from making
    // two: the lock is a round trip to the browser, on the path of every first open (issue 34).
    const stored = verifiedToken ? undefined : storage.getJson<WidgetSession | undefined>('session', undefined);
    if (stored && fresh(stored)) return (session = stored);
    if (typeof navigator === 'undefined' || !navigator.locks) return ensureNow();
    let granted = false;
    const locked = (options: LockOptions, work: () => Promise<WidgetSession>) =>
      new Promise<WidgetSession | undefined>((resolve, reject) => {
        navigator.locks
          .request(`parley-session:${siteKey ?? 'none'}`, options, async (lock) => {
            if (!lock) return resolve(undefined);
            granted = true;
            const before = storage.get('session');
            resolve(await work());
            if (storage.get('session') === before) return;
            await new Promise((settled) => setTimeout(settled, SESSION_SETTLE_MS));
          })
          .catch(reject);
      });
    try {
      return (
        (await locked({ ifAvailable: true }, ensureNow)) ??
        (await locked({}, async () => {
          if (!session) await storage.whenSet('session', 2_000);
          return ensureNow();
        }))!
      );
    } catch (error) {
      // A frame on another site's page may be refused the lock (partitioned storage): then go without it.
      if (granted) throw error;
      return ensureNow();
    }
  }

  return {
    current: () => session,
    ensure,
    known: () => !!(verifiedToken || storage.get('session')),
    forget: () => void (session = undefined),
    verify: (token) => void (verifiedToken = token),
  };
}

/** When a session token expires, read from its payload (not verified here: the BFF does that). */
export function tokenExpiry(token: string): string {
  try {
    const payload = token.slice(4).split('.')[1] ?? '';
    const { exp } = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: number };
    if (typeof exp === 'number') return new Date(exp * 1000).toISOString();
  } catch {
    // Not a JWT we can read: treat it as good for an hour and let the BFF decide.
  }
  return new Date(Date.now() + 3600_000).toISOString();
}
