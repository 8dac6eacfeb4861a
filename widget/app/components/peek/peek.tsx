import { useI18n } from '../../i18n/context.ts';
import { Icon } from '../icons/icons.tsx';

interface Props {
  from: string;
  text: string;
  onOpen(): void;
  onDismiss(): void;
}

/** A new message while the chat is closed: who sent it and its first line, above the launcher. Clicking it opens the chat. */
export function Peek({ from, text, onOpen, onDismiss }: Props) {
  const { t } = useI18n();
  return (
    <div class="peek">
      <button type="button" class="peek-open" onClick={onOpen}>
        <strong>{from}</strong>
        <span>{text.split('\n')[0]}</span>
      </button>
      <button type="button" class="icon" aria-label={t('dismiss')} onClick={onDismiss}>
        <Icon name="close" />
      </button>
    </div>
  );
}
