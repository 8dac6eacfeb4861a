import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { EmailKey } from '../../email-i18n.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface Props {
  t: (key: EmailKey, values?: Record<string, string>) => string;
  title: EmailKey;
  /** A line under the title (the ask says why). */
  why?: EmailKey | undefined;
  /** The address to start from (the one kept), if any. */
  initial: string | null;
  submit: EmailKey;
  /** Buttons beside the submit one: skip, stop e-mails, close. */
  others: { label: EmailKey; run(): void }[];
  /** Focus goes to the field when the customer opened the form (never for the ask, which comes by itself). */
  focus: boolean;
  /** Takes a well-formed address; resolves to a problem to show (the server refused it), or nothing. */
  onSubmit(email: string): Promise<EmailKey | undefined | void>;
}

/**
 * One e-mail field in a small form (issue 32): labelled, checked before it is sent, its error
 * tied to it (aria-describedby, aria-invalid) and read out as it appears. Presentational: what
 * the address is for is the caller's.
 */
export function AddressForm({ t, title, why, initial, submit, others, focus, onSubmit }: Props) {
  const [value, setValue] = useState(initial ?? '');
  const [problem, setProblem] = useState<EmailKey>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    if (focus) input.current?.focus();
  }, [focus]);
  return (
    <form
      class="mail"
      aria-labelledby="p-mail-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const email = value.trim();
        if (!EMAIL.test(email)) {
          setProblem('invalid');
          input.current?.focus();
          return;
        }
        setBusy(true);
        void onSubmit(email).then((refused) => {
          setBusy(false);
          setProblem(refused || undefined);
        });
      }}
    >
      <p id="p-mail-title" class="mail-title">
        {t(title)}
      </p>
      {why && <p class="mail-why">{t(why)}</p>}
      <label class="field">
        {t('address')}
        <input
          ref={input}
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          value={value}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'p-mail-error' : undefined}
          onInput={(event) => setValue(event.currentTarget.value)}
        />
      </label>
      {problem && (
        <p id="p-mail-error" class="error" role="alert">
          {t(problem)}
        </p>
      )}
      <div class="mail-actions">
        {others.map((other) => (
          <button key={other.label} type="button" class="link" onClick={other.run}>
            {t(other.label)}
          </button>
        ))}
        <button type="submit" class="primary" disabled={busy}>
          {t(submit)}
        </button>
      </div>
    </form>
  );
}
