import type { WidgetConversation } from '../../../../shared/index.ts';
import { useI18n } from '../../i18n/context.ts';

/** Every conversation of the customer, newest first: pick one to reopen it, or start a new one. */
export function ConversationList({ conversations, onOpen, onNew }: { conversations: readonly WidgetConversation[]; onOpen: (id: string) => void; onNew: () => void }) {
  const { t, locale } = useI18n();
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <div class="list">
      <button type="button" class="primary wide" onClick={onNew}>
        {t('newConversation')}
      </button>
      {conversations.length === 0 ? (
        <p class="empty">{t('noConversations')}</p>
      ) : (
        <ul>
          {conversations.map((conversation) => (
            <li key={conversation.id}>
              <button type="button" class="conversation" onClick={() => onOpen(conversation.id)}>
                {/* A photo or PDF sent without words shows as its name. */}
                <span class="preview" dir="auto">
                  {conversation.last_message ? conversation.last_message.text || conversation.last_message.attachments?.map((file) => file.name).join(', ') : t('newConversation')}
                </span>
                <span class="details">
                  <time dateTime={conversation.created_at}>{date.format(new Date(conversation.created_at))}</time>
                  {' · '}
                  {conversation.status === 'resolved' ? t('resolved') : t('open')}
                  {conversation.unread > 0 && <span class="count">{t('unreadCount', { count: conversation.unread })}</span>}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
