import { useEffect, useState } from 'preact/hooks';
import { signIn } from '../api.ts';
import type { Session } from '../types.ts';

/**
 * Signing in: a one-time link (`/console/#sign_in_token=…`, from the Platform API or `npm start`)
 * signs in at once; otherwise e-mail and password. A used or expired link says so plainly.
 */
export function SignIn({
  onSignedIn,
  notice,
}: {
  onSignedIn: (session: Session) => void;
  notice?: string | undefined;
}) {
  const [error, setError] = useState<string | undefined>(notice);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const token = new URLSearchParams(location.hash.slice(1)).get('sign_in_token');
    if (!token) return;
    // The link works once: take it out of the address bar and the history at once.
    history.replaceState(null, '', location.pathname + location.search);
    setBusy(true);
    signIn({ sign_in_token: token }).then(onSignedIn, () => {
      setBusy(false);
      setError(
        'This sign-in link has already been used or has expired. Ask for a new link, or sign in with your e-mail and password.',
      );
    });
  }, []);

  async function submit(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    try {
      onSignedIn(await signIn({ email: String(form.get('email')), password: String(form.get('password')) }));
    } catch (failure) {
      setBusy(false);
      setError(failure instanceof Error ? failure.message : 'Signing in failed.');
    }
  }

  return (
    <main class="sign-in">
      <form class="card" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to Parley</h1>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <label>
          E-mail
          <input name="email" type="email" autocomplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
