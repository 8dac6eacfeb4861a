import { useI18n } from '../../i18n/context.ts';

/**
 * The chat refused for a while (a rate limit): how long to wait, in whole minutes rounded up and in
 * the customer's words (never the server's sentence), and the shop's email when the inbox has one.
 * Without a config (the limit came before it could load) there is no email to offer.
 */
export function Limited({ retryAt, email }: { retryAt: number; email?: string | undefined }) {
  const { t, locale } = useI18n();
  const minutes = Math.max(1, Math.ceil((retryAt - Date.now()) / 60_000));
  const wait = new Intl.NumberFormat(locale, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(minutes);
  return (
    <div class="limited" role="alert">
      <p>{t('limited', { wait })}</p>
      {email && (
        <p>
          {t('writeToUs')} <a href={`mailto:${email}`}>{email}</a>
        </p>
      )}
    </div>
  );
}
