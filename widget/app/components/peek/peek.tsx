import type { ParleyEvents } from '../../../api.ts';
import type { Chat } from '../../chat/chat.ts';
import { useI18n } from '../../i18n/context.ts';
import { Icon } from '../icons/icons.tsx';

interface Props {
  message: ParleyEvents['message'];
  chat: Chat;
  onOpen(): void;
  onDismiss(): void;
}

/** A new message while the chat is closed: who sent it and its first line, above the launcher. Clicking it opens the chat. */
export function Peek({ message: { conversation_id, author, text }, chat, onOpen, onDismiss }: Props) {
  const { t } = useI18n();
  // A person by the name on their message; the AI as the assistant.
  const name =
    author === 'human' &&
    chat.state.conversations.find((conversation) => conversation.id === conversation_id)?.last_message?.author_name;
  const from = name || t(author === 'human' ? 'support' : 'assistant');
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
