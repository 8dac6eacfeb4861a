import { useEffect, useMemo, useState } from 'preact/hooks';
import { DeskApi } from '../api.ts';
import type { Session } from '../types.ts';

type Page = typeof import('./findings-page.tsx').FindingsPage;

/**
 * The Findings page, fetched as a chunk of its own the first time it is opened, so that the
 * console's first screen stays within its size budget.
 */
export function LazyFindings({
  session,
  accountId,
  onOpen,
}: {
  session: Session;
  accountId: number;
  onOpen: (conversationId: number) => void;
}) {
  const [page, setPage] = useState<{ Page: Page } | undefined>();
  const [failed, setFailed] = useState(false);
  const api = useMemo(() => new DeskApi(session.access_token, accountId), [session, accountId]);
  useEffect(() => {
    import('./findings-page.tsx').then(
      (module) => setPage({ Page: module.FindingsPage }),
      () => setFailed(true),
    );
  }, []);
  if (failed)
    return (
      <p class="error banner" role="alert">
        The Findings page could not be loaded; reload to try again.
      </p>
    );
  return page ? <page.Page api={api} onOpen={onOpen} /> : <p class="muted placeholder">Loading Findings…</p>;
}
