import { useEffect, useState } from 'preact/hooks';
import { ClientError } from '../../../../shared/client-error.ts';
import type { Chat } from '../../chat/chat.ts';
import { emailStrings, type EmailKey } from '../../email-i18n.ts';
import { useI18n } from '../../i18n/context.ts';
import { wishMail, type MailWish } from '../../mail-wish.ts';
import { AddressForm } from './address-form.tsx';
import { useEmailState } from './email-card-state.ts';

interface Props {
  chat: Chat;
  state: Chat['state'];
  conversationId: string;
  /** The form the customer chose in the options menu, if any. */
  wished: MailWish['form'] | undefined;
}

/**
 * Conversations whose ask the customer skipped on this page: it goes at once. The BFF keeps the skip
 * with the conversation too, so that it does not come back after a reload (its `ask_at` is then null).
 */
const skipped = new Set<string>();

type Say = ReturnType<typeof emailStrings>;

/** What the server's refusal of an address means for the customer. */
const refusal = (error: unknown): EmailKey =>
  error instanceof ClientError && error.code === 'invalid_request' ? 'invalid' : 'failed';

/** A line saying what happened, read out as it appears, with a Close button. */
function Note({ text, t, onClose }: { text: string; t: Say; onClose(): void }) {
  return (
    <p class="mail mail-note" role="status">
      {text}{' '}
      <button type="button" class="link" onClick={onClose}>
        {t('close')}
      </button>
    </p>
  );
}

/**
 * The e-mail card above the composer (issue 32): "Get the reply by e-mail?" when the BFF says to
 * ask (nobody answers now, or the customer has waited for a person), the address form to change
 * or remove it, and "E-mail me this conversation". Then a line that says what happened.
 */
export function EmailCard({ chat, state, conversationId, wished }: Props) {
  const t = emailStrings(useI18n().locale);
  const { known, askDue, reload } = useEmailState(chat, conversationId, state.handledBy, wished);
  const [note, setNote] = useState<string>();
  const [, setSkips] = useState(0);
  useEffect(() => setNote(undefined), [conversationId, wished]);
  const path = `conversations/${encodeURIComponent(conversationId)}`;
  const close = () => {
    setNote(undefined);
    wishMail(undefined);
  };
  const keep = async (email: string | null) => {
    await chat.call(`${path}/email`, 'PUT', { email });
    await reload();
  };
  const done = (key: EmailKey, email = '') => setNote(t(key, { email }));
  const saveAddress = (email: string) => keep(email).then(() => done('saved', email), refusal);

  if (note) return <Note text={note} t={t} onClose={close} />;
  if (!known) return null;
  if (!known.sending) return wished ? <Note text={t('off')} t={t} onClose={close} /> : null;
  if (wished === 'transcript')
    return (
      <AddressForm
        t={t}
        title="transcriptTitle"
        initial={known.email}
        submit="send"
        others={[{ label: 'close', run: close }]}
        focus
        onSubmit={async (email) => {
          try {
            if (email !== known.email) await keep(email);
            await chat.call(`${path}/transcript`, 'POST', {});
            done('sent', email);
          } catch (error) {
            const code = error instanceof ClientError ? error.code : undefined;
            if (code === 'rate_limited' || code === 'not_available')
              return done(code === 'rate_limited' ? 'tooSoon' : 'off');
            return refusal(error);
          }
        }}
      />
    );
  if (wished === 'address') {
    const stop = { label: 'remove' as const, run: () => void keep(null).then(() => done('removed'), close) };
    return (
      <AddressForm
        t={t}
        title="addressTitle"
        initial={known.email}
        submit="save"
        others={[...(known.email ? [stop] : []), { label: 'close', run: close }]}
        focus
        onSubmit={saveAddress}
      />
    );
  }
  if (known.email || !askDue || skipped.has(conversationId)) return null;
  const skip = () => {
    skipped.add(conversationId);
    setSkips((count) => count + 1);
    void chat.call(`${path}/email/skip`, 'POST').catch(() => {});
  };
  return (
    <AddressForm
      t={t}
      title="askTitle"
      why="askWhy"
      initial={null}
      submit="save"
      others={[{ label: 'skip', run: skip }]}
      focus={false}
      onSubmit={saveAddress}
    />
  );
}
