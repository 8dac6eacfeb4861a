import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Chat } from '../../chat/chat.ts';
import { emailStrings } from '../../email-i18n.ts';
import { useI18n } from '../../i18n/context.ts';
import { emailState, wishMail } from '../../mail-wish.ts';

interface MenuItem {
  label: string;
  /** A setting turned on or off (a menuitemcheckbox); absent for an action. */
  checked?: boolean;
  run(): void;
}

interface Props {
  chat: Chat;
  state: Chat['state'];
  /** The menu closes: with Escape or a choice focus goes back to its button; with Tab or a click elsewhere it moves on. */
  onClose(refocus: boolean): void;
}

/**
 * The header's "More options" menu (WAI-ARIA APG, menu button): focus starts on the first item,
 * the arrow keys, Home and End move through the items (wrapping), Escape closes it. It holds the
 * sound for new messages; where e-mail is on, "E-mail me this conversation" and the address for
 * replies by e-mail (issue 32); and, while a conversation is under way, "End conversation".
 */
export function OptionsMenu({ chat, state, onClose }: Props) {
  const { t, locale } = useI18n();
  const menu = useRef<HTMLDivElement>(null);
  const id = state.view === 'chat' && state.messages.length > 0 ? state.conversationId : undefined;
  const mailing = useMailing(chat, id);
  const items: MenuItem[] = [{ label: t('soundOn'), checked: state.sound, run: () => chat.setSound(!state.sound) }];
  if (id && mailing) {
    const say = emailStrings(locale);
    items.push(
      { label: say('transcript'), run: () => wishMail({ conversationId: id, form: 'transcript' }) },
      { label: say('addressTitle'), run: () => wishMail({ conversationId: id, form: 'address' }) },
    );
  }
  if (id && !state.resolved) {
    items.push({ label: t('closeConversation'), run: () => void chat.endConversation() });
  }
  // At once as it shows (an effect would wait for the next frame, and a quick Escape would close the chat instead).
  useLayoutEffect(() => menu.current?.querySelector('button')?.focus(), []);
  return (
    <div
      ref={menu}
      class="menu"
      role="menu"
      aria-label={t('moreOptions')}
      onKeyDown={(event) => {
        const buttons = [...menu.current!.querySelectorAll('button')];
        const at = buttons.indexOf(event.target as HTMLButtonElement);
        const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: -1 }[event.key];
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose(true);
        } else if (event.key === 'Tab') onClose(false);
        else if (to !== undefined) {
          event.preventDefault();
          buttons.at(to % buttons.length)?.focus();
        }
      }}
      onFocusOut={(event) => {
        // Focus going to the menu's own button is left to its click, which toggles the menu.
        if (!menu.current?.parentElement?.contains(event.relatedTarget as Node | null)) onClose(false);
      }}
    >
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          tabIndex={-1}
          role={item.checked === undefined ? 'menuitem' : 'menuitemcheckbox'}
          aria-checked={item.checked}
          onClick={() => {
            item.run();
            onClose(true);
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}

/** Whether the conversation's e-mail is on (asked once per conversation; false until known). */
function useMailing(chat: Chat, conversationId: string | undefined): boolean {
  const [sending, setSending] = useState(false);
  useEffect(() => {
    if (conversationId)
      void emailState(chat, conversationId).then(
        (known) => setSending(known.sending),
        () => {},
      );
  }, [conversationId]);
  return sending;
}
