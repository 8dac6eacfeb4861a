import { useState } from 'preact/hooks';
import { useI18n } from '../../i18n/context.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The pre-chat form, when the inbox asks for it: a visitor's name and email before the first message. */
export function PrechatForm({ onSubmit }: { onSubmit: (contact: { name: string; email: string }) => void }) {
  const { t } = useI18n();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  return (
    <form
      class="prechat"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!name.trim()) return setProblem(t('nameRequired'));
        if (!EMAIL.test(email.trim())) return setProblem(t('emailInvalid'));
        onSubmit({ name: name.trim(), email: email.trim() });
      }}
    >
      <p>{t('prechatIntro')}</p>
      <label class="field">
        {t('name')}
        <input
          type="text"
          autoComplete="name"
          required
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
        />
      </label>
      <label class="field">
        {t('email')}
        <input
          type="email"
          autoComplete="email"
          required
          value={email}
          onInput={(event) => setEmail(event.currentTarget.value)}
        />
      </label>
      {problem && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" class="primary wide">
        {t('start')}
      </button>
    </form>
  );
}
