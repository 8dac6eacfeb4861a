import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Chat } from '../../chat/chat.ts';
import { useI18n } from '../../i18n/context.ts';

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
 * sound for new messages and, while a conversation is under way, "End conversation".
 */
export function OptionsMenu({ chat, state, onClose }: Props) {
  const { t } = useI18n();
  const menu = useRef<HTMLDivElement>(null);
  const items: MenuItem[] = [{ label: t('soundOn'), checked: state.sound, run: () => chat.setSound(!state.sound) }];
  if (state.view === 'chat' && state.conversationId && state.messages.length > 0 && !state.resolved) {
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
