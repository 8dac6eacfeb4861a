import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Chat } from '../../chat/chat.ts';
import { useI18n } from '../../i18n/context.ts';
import { Header } from '../header/header.tsx';
import { useChunk } from '../../use-chunk.ts';
import { chatView } from './chat-view.tsx';
import { trapTab } from './focus-trap.ts';

// The list, survey and pre-chat form; and the attach tray, upload and thumbnails.
const extras = () => import('../../extras.ts');
const attachments = () => import('../../attachments.ts');
// The welcome, suggested questions and help search before the first message.
const homeChunk = () => import('../../home.ts');
// Calls with a person (issue 30): only while the inbox offers them.
const calls = () => import('../../call/call.tsx');

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
  const limited = state.error === 'rate_limited' && state.retryAt;
  const more = useChunk(
    extras,
    state.open && (state.view !== 'chat' || state.resolved || !!limited),
    () => section.current,
  );
  // Files picked, pasted or dropped, waiting in the tray until sent or removed.
  const [files, setFiles] = useState<File[]>();
  const attach = useChunk(
    attachments,
    state.open && (!!files || state.messages.some((message) => message.attachments)),
    () => section.current,
  );
  const empty = state.phase === 'ready' && !state.messages.length && !state.resolved && state.config;
  const home = useChunk(homeChunk, state.open && !!empty, () => section.current);
  const call = useChunk(calls, state.open && !!state.config?.features.calls, () => section.current);
  // Focus moves into the panel when it opens: to the message box when it can take text. In the same
  // commit as the view it moves to (a layout effect), never a frame later from the control just removed.
  useLayoutEffect(() => {
    if (!state.open) return;
    if (state.view === 'chat' && input.current && !input.current.disabled) input.current.focus();
    else heading.current?.focus();
  }, [state.open, state.view, state.phase, state.resolved]);
  if (!state.open) return null;
  const name = state.config?.inbox.name ?? '';
  return (
    <section
      ref={section}
      class={`panel${fullPage ? ' full' : ''}`}
      role={fullPage ? 'main' : 'dialog'}
      aria-label={name ? t('chatWith', { name }) : t('chat')}
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
        // A dialog keeps Tab inside; not on the hosted page, where the chat is the page.
        if (event.key === 'Tab' && !fullPage) trapTab(event, section.current!, heading.current);
      }}
    >
      <Header chat={chat} state={state} fullPage={fullPage} onClose={onClose} heading={heading} />
      {!state.online && (
        <p class="offline" role="status">
          {t('offline')}
        </p>
      )}
      {state.view === 'list' && more && (
        <more.ConversationList
          conversations={state.conversations}
          onOpen={(id) => void chat.openConversation(id)}
          onNew={() => void chat.newConversation()}
        />
      )}
      {state.view === 'prechat' && more && (
        <more.PrechatForm onSubmit={(contact) => void chat.newConversation(contact)} />
      )}
      {call && state.view === 'chat' && <call.Call chat={chat} state={state} />}
      {state.view === 'chat' &&
        chatView(chat, state, answers, t, more, attach, home, empty, limited, files, setFiles, input)}
    </section>
  );
}
