import { useState } from 'preact/hooks';
import { useI18n } from '../../i18n/context.ts';

interface Props {
  disabled: boolean;
  onSend: (text: string) => void;
  onTyping: () => void;
  inputRef: { current: HTMLTextAreaElement | null };
}

/** The text box and Send button. Enter sends; Shift+Enter makes a new line. */
export function Composer({ disabled, onSend, onTyping, inputRef }: Props) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const submit = () => {
    if (!text.trim() || disabled) return;
    onSend(text);
    setText('');
  };
  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <textarea
        ref={inputRef}
        aria-label={t('message')}
        placeholder={t('placeholder')}
        rows={1}
        maxLength={10_000}
        value={text}
        disabled={disabled}
        onInput={(event) => {
          setText(event.currentTarget.value);
          onTyping();
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            submit();
          }
        }}
      />
      <button type="submit" class="primary" disabled={disabled || !text.trim()}>
        {t('send')}
      </button>
    </form>
  );
}
