import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { useI18n } from '../../i18n/context.ts';
import type { Chat } from '../../chat/chat.ts';
import { Icon } from '../icons/icons.tsx';

interface Props {
  disabled: boolean;
  /**
   * Where what is written goes (`send`), who hears of the typing (`typing`), and where a recorded
   * voice note goes at once (`target`, `took`: the microphone's recorder uploads it).
   */
  chat: Pick<Chat, 'send' | 'typing' | 'target' | 'took'>;
  /** Files picked with the attach button or pasted into the text box (the panel takes dropped ones). */
  onFiles: (files: File[]) => void;
  inputRef: { current: HTMLTextAreaElement | null };
}

/**
 * The text box, the attach and microphone buttons and Send. Enter sends; Shift+Enter makes a new line; a pasted
 * image is attached. The box grows with its text up to five lines (the style's max-height), then
 * scrolls; its 16 px text keeps iOS Safari from zooming in on focus.
 */
export function Composer({ disabled, chat, onFiles, inputRef }: Props) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  // The microphone for voice notes: a small chunk loaded once the composer shows (the recorder itself
  // loads only when it is pressed), so the first download carries none of it.
  const [mic, setMic] = useState<typeof import('../../voice/mic.tsx')>();
  useEffect(() => void import('../../voice/mic.tsx').then(setMic), []);
  useLayoutEffect(() => {
    const box = inputRef.current;
    if (!box) return;
    box.style.height = '';
    box.style.height = `${box.scrollHeight + 2}px`;
  }, [text]);
  const submit = () => {
    if (!text.trim() || disabled) return;
    void chat.send(text);
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
      {/* The file input itself, drawn as an icon: the keyboard reaches it and a screen reader names it. */}
      <label class="icon attach">
        <input
          type="file"
          class="visually-hidden"
          aria-label={t('attach')}
          accept="image/*,.pdf,audio/*,video/*"
          disabled={disabled}
          onChange={(event) => {
            onFiles([...event.currentTarget.files!]);
            event.currentTarget.value = '';
          }}
        />
        <Icon name="clip" />
      </label>
      {mic && <mic.Mic chat={chat} onFiles={onFiles} />}
      <textarea
        ref={inputRef}
        onPaste={(event) => {
          const files = [...event.clipboardData!.files];
          if (files[0]) {
            event.preventDefault();
            onFiles(files);
          }
        }}
        aria-label={t('message')}
        placeholder={t('placeholder')}
        rows={1}
        maxLength={10_000}
        value={text}
        disabled={disabled}
        onInput={(event) => {
          setText(event.currentTarget.value);
          chat.typing();
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
