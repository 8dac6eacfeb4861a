import { useEffect, useMemo, useState } from 'preact/hooks';
import { DeskApi } from '../api.ts';
import type { Session } from '../types.ts';

type Page = typeof import('./reports-page.tsx').ReportsPage;

/** True when the person administers the account: only they see Reports (the BFF refuses anyone else). */
export function administers(session: Session, accountId: number): boolean {
  return session.user.accounts.some((account) => account.id === accountId && account.role === 'administrator');
}

/**
 * The Reports page, fetched as a chunk of its own the first time it is opened, so that the
 * console's first screen stays within its size budget.
 */
export function LazyReports({ session, accountId }: { session: Session; accountId: number }) {
  const [page, setPage] = useState<{ Page: Page } | undefined>();
  const [failed, setFailed] = useState(false);
  const api = useMemo(() => new DeskApi(session.access_token, accountId), [session, accountId]);
  useEffect(() => {
    import('./reports-page.tsx').then(
      (module) => setPage({ Page: module.ReportsPage }),
      () => setFailed(true),
    );
  }, []);
  if (failed)
    return (
      <p class="error banner" role="alert">
        The Reports page could not be loaded; reload to try again.
      </p>
    );
  return page ? <page.Page api={api} /> : <p class="muted placeholder">Loading Reports…</p>;
}
