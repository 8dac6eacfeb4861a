import { useEffect, useRef, useState } from 'preact/hooks';
import type { Chat } from '../../chat/chat.ts';
import { ClientError, type ClientErrorCode } from '../../../../shared/client-error.ts';
import { useI18n } from '../../i18n/context.ts';
import { attachmentStrings, fileSize, type AttachmentKey } from '../../attachments-i18n.ts';
import { MAX_FILE_BYTES, SENDABLE_TYPES, uploadFile, type Upload } from '../../attachments-upload.ts';

interface Props {
  /** The files picked, pasted or dropped; the first is the one sent (one file per message). */
  files: File[];
  chat: Pick<Chat, 'target' | 'took'>;
  /** Sent or removed: the tray closes. */
  onDone: () => void;
}

/** Why the BFF refused a file, as the customer is told it. */
const REFUSALS: Partial<Record<ClientErrorCode, AttachmentKey>> = {
  unsupported_media_type: 'errorType',
  payload_too_large: 'errorSize',
  unprocessable: 'errorPixels',
  rate_limited: 'errorBusy',
  storage_full: 'errorFull',
};

/** What is wrong with a file before it goes anywhere: a kind the BFF would refuse, or too big. */
function refusalOf(file: File): AttachmentKey | undefined {
  if (file.type && !SENDABLE_TYPES.includes(file.type)) return 'errorType';
  if (file.size > MAX_FILE_BYTES) return 'errorSize';
  return undefined;
}

/**
 * The composer's text box, just after the tray (the chat view draws them side by side): what is
 * written there is the file's caption.
 */
function draftBox(tray: HTMLElement | null): HTMLTextAreaElement | null | undefined {
  return tray?.nextElementSibling?.querySelector('textarea');
}

/** Empties the composer's draft as typing would (its own input handler keeps its state). */
function clearDraft(box: HTMLTextAreaElement | null | undefined): void {
  if (!box?.value) return;
  box.value = '';
  box.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * The file about to be sent, above the composer: a thumbnail for a photo (from the file itself, not
 * uploaded yet) or the name and size of a PDF, with Send and Remove. While it uploads, the
 * progress shows; a file the widget or the BFF refuses is said why, in the customer's language.
 * The composer's draft goes with the file as its caption; once sent, the draft is emptied and the
 * people answering no longer see the customer typing.
 */
export function AttachTray({ files, chat, onDone }: Props) {
  const { locale } = useI18n();
  const t = attachmentStrings(locale);
  const file = files[0]!;
  const [error, setError] = useState<AttachmentKey | undefined>(() => refusalOf(file));
  const [progress, setProgress] = useState<number | undefined>();
  // One message id for this file: pressing Send again after a failure cannot make two messages.
  const [messageId] = useState(() => crypto.randomUUID());
  const [preview] = useState(() =>
    !refusalOf(file) && file.type.startsWith('image/') ? URL.createObjectURL(file) : undefined,
  );
  const upload = useRef<Upload | undefined>(undefined);
  const sendButton = useRef<HTMLButtonElement>(null);
  const tray = useRef<HTMLDivElement>(null);
  useEffect(() => {
    sendButton.current?.focus();
    return () => {
      upload.current?.abort();
      if (preview) URL.revokeObjectURL(preview);
    };
  }, []);

  const send = async () => {
    setError(undefined);
    setProgress(0);
    try {
      const [token, baseUrl, conversationId] = await chat.target(true);
      const box = draftBox(tray.current);
      const caption = box?.value.trim() ?? '';
      const target = { token, baseUrl, conversationId: conversationId! };
      upload.current = uploadFile(target, file, messageId, setProgress, caption);
      const sent = await upload.current.done;
      clearDraft(box);
      chat.took(sent);
      onDone();
    } catch (caught) {
      if (caught instanceof ClientError && caught.code === 'aborted') return;
      setProgress(undefined);
      setError((caught instanceof ClientError && REFUSALS[caught.code]) || 'errorFailed');
    }
  };

  const sending = progress !== undefined;
  return (
    <div ref={tray} class="tray" role="group" aria-label={t('tray')}>
      <TrayFile file={file} preview={preview} locale={locale} />
      {sending && <progress max={100} value={progress} aria-label={t('sending', { percent: progress })} />}
      {error && (
        <p class="error" role="alert">
          {t(error, { max: fileSize(MAX_FILE_BYTES, locale) })}
        </p>
      )}
      <div class="tray-actions">
        <button type="button" class="link" onClick={onDone}>
          {t('remove')}
        </button>
        <button
          ref={sendButton}
          type="button"
          class="primary"
          disabled={sending || (!!error && error !== 'errorFailed' && error !== 'errorBusy')}
          onClick={() => void send()}
        >
          {t('send')}
        </button>
      </div>
    </div>
  );
}

/** The file in the tray: its thumbnail (a photo) or kind, its name and its size. */
function TrayFile({ file, preview, locale }: { file: File; preview: string | undefined; locale: string }) {
  return (
    <div class="tray-file">
      {preview ? (
        <img class="tray-thumb" src={preview} alt="" />
      ) : (
        <span class="tray-kind" aria-hidden="true">
          {file.type === 'application/pdf' ? 'PDF' : '?'}
        </span>
      )}
      <span class="tray-name" dir="auto">
        {file.name}
      </span>
      <span class="tray-size">{fileSize(file.size, locale)}</span>
    </div>
  );
}
