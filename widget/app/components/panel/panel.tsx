import { useEffect, useRef, useState } from 'preact/hooks';
import type { Chat } from '../../chat.ts';
import { useI18n } from '../../i18n/context.ts';
import { Composer } from '../composer/composer.tsx';
import { Icon } from '../icons/icons.tsx';
import { MessageList } from '../message-list/message-list.tsx';

// The list, survey and pre-chat form; and the attach tray, upload and thumbnails.
const extras = () => import('../../extras.ts');
const attachments = () => import('../../attachments.ts');
const chunks = new Map<unknown, Promise<unknown>>();

/** A chunk loaded the first time it is needed, with its styles adopted into the shadow root. */
function useChunk<T extends { CSS: string }>(load: () => Promise<T>, needed: boolean, root: () => Node | null): T | undefined {
  const [loaded, setLoaded] = useState<T | undefined>();
  useEffect(() => {
    if (!needed || loaded) return;
    if (!chunks.has(load)) {
      chunks.set(
        load,
        load().then((module) => {
          const shadow = root()?.getRootNode();
          if (shadow instanceof ShadowRoot) {
            const sheet = new CSSStyleSheet();
            sheet.replaceSync(module.CSS);
            shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, sheet];
          }
          return module;
        }),
      );
    }
    void (chunks.get(load) as Promise<T>).then(setLoaded);
  }, [needed, loaded]);
  return loaded;
}

interface Props {
  chat: Chat;
  /** The chat's state: the app draws once per change (widget/app/index.tsx), and the panel takes it as it is. */
  state: Chat['state'];
  /** On the hosted page the chat fills the page and cannot be closed. */
  fullPage: boolean;
  onClose: () => void;
  /** Formatting, cards and quick replies: the answers chunk, once loaded (widget/app/index.tsx fetches it). */
  answers?: typeof import('../../answers.ts') | undefined;
}

/** The open chat: header, then the conversation, the list of conversations or the pre-chat form. Escape closes it. */
export function Panel({ chat, state, fullPage, onClose, answers }: Props) {
  const { t } = useI18n();
  const input = useRef<HTMLTextAreaElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const section = useRef<HTMLElement>(null);
  const more = useChunk(extras, state.open && (state.view !== 'chat' || state.resolved), () => section.current);
  // Files picked, pasted or dropped, waiting in the tray until sent or removed.
  const [files, setFiles] = useState<File[]>();
  const attach = useChunk(attachments, state.open && (!!files || state.messages.some((message) => message.attachments)), () => section.current);
  // Focus moves into the panel when it opens: to the message box when it can take text.
  useEffect(() => {
    if (!state.open) return;
    if (state.view === 'chat' && input.current && !input.current.disabled) input.current.focus();
    else heading.current?.focus();
  }, [state.open, state.view, state.phase, state.resolved]);
  if (!state.open) return null;
  const name = state.config?.inbox.name ?? '';
  const busy = state.phase !== 'ready';
  return (
    <section
      ref={section}
      class={`panel${fullPage ? ' full' : ''}`}
      role={fullPage ? 'main' : 'dialog'}
      aria-label={t('chatWith', { name })}
      onDragOver={(event) => event.preventDefault()}
      onDrop={(event) => {
        // A file dropped anywhere on the panel goes to the tray (shown with the composer).
        const dropped = [...event.dataTransfer!.files];
        if (dropped[0]) {
          event.preventDefault();
          setFiles(dropped);
        }
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !fullPage) {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <header class="header">
        <div class="title">
          <h2 ref={heading} tabIndex={-1}>
            {name || t('chatWith', { name: '' }).trim()}
          </h2>
          <p class="subtitle">{state.handledBy === 'human' ? t('humanAnswering') : t('aiAnswering')}</p>
        </div>
        {state.view === 'list' ? (
          <button type="button" class="icon" aria-label={t('backToChat')} onClick={() => chat.backToChat()} disabled={!state.conversationId}>
            <Icon name="back" />
          </button>
        ) : (
          <button type="button" class="icon" aria-label={t('conversations')} onClick={() => chat.showList()} disabled={busy}>
            <Icon name="menu" />
          </button>
        )}
        <button type="button" class="icon" aria-label={t('soundOn')} aria-pressed={state.sound} onClick={() => chat.setSound(!state.sound)}>
          <Icon name={state.sound ? 'bell' : 'bellOff'} />
        </button>
        {!fullPage && (
          <button type="button" class="icon" aria-label={t('closeChat')} onClick={onClose}>
            <Icon name="close" />
          </button>
        )}
      </header>
      {!state.online && (
        <p class="offline" role="status">
          {t('offline')}
        </p>
      )}
      {state.view === 'list' && more && <more.ConversationList conversations={state.conversations} onOpen={(id) => void chat.openConversation(id)} onNew={() => void chat.newConversation()} />}
      {state.view === 'prechat' && more && <more.PrechatForm onSubmit={(contact) => void chat.newConversation(contact)} />}
      {state.view === 'chat' && (
        <>
          <MessageList
            messages={state.messages}
            greeting={state.config?.inbox.greeting}
            typing={state.typing}
            draft={state.draft}
            canChoose={!state.resolved}
            onChoose={(choice) => void chat.choose(choice)}
            onRetry={(key) => void chat.retry(key)}
            files={attach && ((items) => <attach.Files items={items} chat={chat} />)}
            answers={answers}
          />
          {state.resolved && (
            <div class="ended">
              <p>{t('conversationClosed')}</p>
              {state.config?.features.survey && more && <more.Survey answered={state.surveyAnswered} onAnswer={(rating, comment) => chat.answerSurvey(rating, comment)} />}
              <button type="button" class="primary wide" onClick={() => void chat.newConversation()}>
                {t('newConversation')}
              </button>
            </div>
          )}
          {state.phase === 'error' && (
            <p class="error" role="alert">
              {state.error === 'connect' ? t('connectError') : state.error}
            </p>
          )}
          {!state.resolved && (
            <>
              {state.conversationId && state.messages.length > 0 && (
                <button type="button" class="link end" onClick={() => void chat.endConversation()}>
                  {t('closeConversation')}
                </button>
              )}
              {files && attach && <attach.Tray files={files} chat={chat} onDone={() => setFiles(undefined)} />}
              <Composer disabled={busy} inputRef={input} onTyping={() => chat.typing()} onSend={(text) => void chat.send(text)} onFiles={setFiles} />
            </>
          )}
        </>
      )}
    </section>
  );
}
