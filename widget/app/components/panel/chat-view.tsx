/** The panel's conversation view: the home screen or the messages, the ending and survey, problems, and the composer. */
import type { RefObject } from 'preact';
import type { WidgetConfig } from '../../../../shared/index.ts';
import type { Chat } from '../../chat/chat.ts';
import type { Translator } from '../../i18n/index.ts';
import { Composer } from '../composer/composer.tsx';
import { MessageList } from '../message-list/message-list.tsx';

/**
 * What the panel shows while its view is the chat. It takes the panel's values by position, as the
 * chat's parts do (widget/app/chat/chat.ts): named in an object they would cost the first download
 * bytes it has not got. `more`, `attach` and `home` are the lazy chunks the panel loads; `empty` is
 * the config while the conversation has no messages yet (the home screen shows then); `limited` the
 * time the customer may send again after sending too many; `files` those waiting in the tray; and
 * `input` the message box, which the panel focuses.
 */
export function chatView(
  chat: Chat,
  state: Chat['state'],
  answers: typeof import('../../answers.ts') | undefined,
  t: Translator['t'],
  more: typeof import('../../extras.ts') | undefined,
  attach: typeof import('../../attachments.ts') | undefined,
  home: typeof import('../../home.ts') | undefined,
  empty: WidgetConfig | false | undefined,
  limited: number | false | undefined,
  files: File[] | undefined,
  setFiles: (files: File[] | undefined) => void,
  input: RefObject<HTMLTextAreaElement | null>,
) {
  return (
    <>
      {home && empty ? (
        <home.Home chat={chat} inbox={empty.inbox} answers={answers} />
      ) : (
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
      )}
      {answers && <answers.MailSlot chat={chat} state={state} />}
      {state.resolved && (
        <div class="ended">
          {/* The ending and "New conversation" share a line, and the survey is a row of buttons, so the log above keeps its room. */}
          <p>
            {t('conversationClosed')}
            <button type="button" class="primary" onClick={() => void chat.newConversation()}>
              {t('newConversation')}
            </button>
          </p>
          {state.config?.features.survey && more && (
            <more.Survey
              answered={state.surveyAnswered}
              onAnswer={(rating, comment) => chat.answerSurvey(rating, comment)}
            />
          )}
        </div>
      )}
      {state.phase === 'error' && limited
        ? more && <more.Limited retryAt={limited} state={state} />
        : state.phase === 'error' && (
            // The customer reads their own language, never the server's sentence; the site's owner gets it in the 'error' event.
            <p class="error" role="alert">
              {t('connectError')}
            </p>
          )}
      {!state.resolved && (
        <>
          {files && attach && <attach.Tray files={files} chat={chat} onDone={() => setFiles(undefined)} />}
          <Composer disabled={state.phase !== 'ready'} inputRef={input} chat={chat} onFiles={setFiles} />
        </>
      )}
    </>
  );
}
