import type { ChatState } from '../../chat/state.ts';
import { useI18n } from '../../i18n/context.ts';

/**
 * The inbox's name and e-mail: from its config, or (the limit came before the config could load)
 * from the refusal, whose body carries them for a valid site key.
 */
type Shown = { name?: string | undefined; email?: string | undefined };

function inboxOf({ config, refused }: Pick<ChatState, 'config' | 'refused'>): Shown {
  return config?.inbox ?? (refused as { inbox?: Shown } | undefined)?.inbox ?? {};
}

/**
 * The chat refused for a while (a rate limit): the shop's name, how long to wait, in whole minutes
 * rounded up and in the customer's words (never the server's sentence), and the shop's e-mail
 * when the inbox has one.
 */
export function Limited({ retryAt, state }: { retryAt: number; state: Pick<ChatState, 'config' | 'refused'> }) {
  const { t, locale } = useI18n();
  const { name, email } = inboxOf(state);
  const minutes = Math.max(1, Math.ceil((retryAt - Date.now()) / 60_000));
  const wait = new Intl.NumberFormat(locale, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(minutes);
  return (
    <div class="limited" role="alert">
      {name && !state.config && (
        <p>
          <strong dir="auto">{name}</strong>
        </p>
      )}
      <p>{t('limited', { wait })}</p>
      {email && (
        <p>
          {t('writeToUs')} <a href={`mailto:${email}`}>{email}</a>
        </p>
      )}
    </div>
  );
}
