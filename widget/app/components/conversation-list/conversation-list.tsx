import type { WidgetConversation } from '../../../../shared/index.ts';
import { useI18n } from '../../i18n/context.ts';

/**
 * Every conversation of the customer, newest first, under a heading: each titled by when it began
 * (local date and time), with its last message on one line saying who wrote it, a dot while it has
 * unread answers (its count is read out) and a mark once resolved. Pick one to reopen it, or start
 * a new one.
 */
export function ConversationList({
  conversations,
  onOpen,
  onNew,
}: {
  conversations: readonly WidgetConversation[];
  onOpen: (id: string) => void;
  onNew: () => void;
}) {
  const { t, locale } = useI18n();
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <div class="list">
      <h3>{t('conversations')}</h3>
      <button type="button" class="primary wide" onClick={onNew}>
        {t('newConversation')}
      </button>
      {conversations.length === 0 ? (
        <p class="empty">{t('noConversations')}</p>
      ) : (
        <ul>
          {conversations.map(({ id, created_at, last_message: last, status, unread }) => {
            const who =
              last &&
              (
                { customer: t('you'), human: last.author_name ?? t('support'), ai: t('assistant'), system: '' } as const
              )[last.author];
            // A photo or PDF sent without words shows as its name.
            const text = last && (last.text || last.attachments?.map((file) => file.name).join(', '));
            return (
              <li key={id}>
                <button type="button" class="conversation" onClick={() => onOpen(id)}>
                  <span class="details">
                    <time dateTime={created_at}>{date.format(new Date(created_at))}</time>
                    {status === 'resolved' && <span class="tag">{t('resolved')}</span>}
                    {unread > 0 && (
                      <span class="dot">
                        <span class="visually-hidden">{t('unreadCount', { count: unread })}</span>
                      </span>
                    )}
                  </span>
                  <span class="preview" dir="auto">
                    {!last ? t('newConversation') : who ? t('saidBy', { name: who, text: text ?? '' }) : text}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
