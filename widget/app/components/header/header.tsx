import type { Ref } from 'preact';
import { useRef, useState } from 'preact/hooks';
import type { Chat } from '../../chat/chat.ts';
import { useI18n } from '../../i18n/context.ts';
import type { Translator } from '../../i18n/index.ts';
import { popups, useChunk } from '../../use-chunk.ts';
import { Icon } from '../icons/icons.tsx';

/** What the line under the name says, and the mark before it: the AI's badge or the person's initials. */
function whoAnswers(state: Chat['state'], t: Translator['t']) {
  const person =
    state.handledBy === 'human'
      ? state.messages.findLast((message) => message.author === 'human')?.authorName
      : undefined;
  const replyTime = state.config?.inbox.reply_time;
  // Refused or unreachable: nobody answers for now, and the notice below says why.
  return state.phase === 'error'
    ? ['', '']
    : state.view === 'list'
      ? ['', t('conversations')]
      : state.resolved
        ? ['', t('ended')]
        : state.handledBy === 'human'
          ? // One short line: the person once one answered, else how soon people reply (when the shop said).
            [
              person
                ?.split(' ')
                .map((word) => word[0])
                .join('')
                .slice(0, 2),
              // Nobody who answers is online (issue 31, pushed live by `availability:changed`): not even the person who answered.
              state.config?.inbox.people_available === false
                ? t('peopleAway')
                : person
                  ? t('personAnswering', { name: person })
                  : replyTime
                    ? t(replyTime)
                    : t('humanAnswering'),
            ]
          : [t('aiBadge'), t('aiAnswering')];
}

interface Props {
  chat: Chat;
  state: Chat['state'];
  fullPage: boolean;
  onClose: () => void;
  heading: Ref<HTMLHeadingElement>;
}

/**
 * The panel's header, one fixed height whatever it says: the shop's logo and name (a localized
 * "Chat" when the settings could not load), then one line that never wraps saying what is shown:
 * who answers (the AI with its badge; after a handover the person, with their initials and how
 * soon people reply, or that they are away and answer by e-mail), the list of conversations, or that the conversation ended. Its buttons: the
 * conversations (or back), "More options" (sound, "End conversation") and close.
 */
export function Header({ chat, state, fullPage, onClose, heading }: Props) {
  const { t } = useI18n();
  const [menu, setMenu] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const loaded = useChunk(popups, menu, () => button.current);
  const inbox = state.config?.inbox;
  const [mark, line] = whoAnswers(state, t);
  return (
    <header class="header">
      {inbox?.avatar_url && <img class="logo" src={inbox.avatar_url} alt="" />}
      <div class="title">
        <h2 ref={heading} tabIndex={-1}>
          {inbox?.name || t('chat')}
        </h2>
        <p class="who">
          {mark && (
            // The AI's badge is read out ("AI, replies instantly"); a person's initials are not (their name follows).
            <span class="badge" aria-hidden={state.handledBy === 'human' || undefined}>
              {mark}
            </span>
          )}
          <span class="subtitle">{line}</span>
        </p>
      </div>
      {state.view === 'list' ? (
        <button
          type="button"
          class="icon"
          aria-label={t('backToChat')}
          onClick={() => chat.backToChat()}
          disabled={!state.conversationId}
        >
          <Icon name="back" />
        </button>
      ) : (
        <button
          type="button"
          class="icon"
          aria-label={t('conversations')}
          onClick={() => chat.showList()}
          disabled={state.phase !== 'ready'}
        >
          <Icon name="menu" />
        </button>
      )}
      <div class="more">
        <button
          ref={button}
          type="button"
          class="icon"
          aria-label={t('moreOptions')}
          aria-haspopup="menu"
          aria-expanded={menu}
          onClick={() => setMenu(!menu)}
        >
          <Icon name="more" />
        </button>
        {menu && loaded && (
          <loaded.OptionsMenu
            chat={chat}
            state={state}
            onClose={(refocus) => {
              setMenu(false);
              if (refocus) button.current?.focus();
            }}
          />
        )}
      </div>
      {!fullPage && (
        <button type="button" class="icon" aria-label={t('closeChat')} onClick={onClose}>
          <Icon name="close" />
        </button>
      )}
    </header>
  );
}
