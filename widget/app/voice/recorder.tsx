import { useEffect, useRef, useState } from 'preact/hooks';
import { ClientError } from '../../../shared/client-error.ts';
import { attachmentStrings } from '../attachments-i18n.ts';
import { uploadFile, type Upload } from '../attachments-upload.ts';
import type { Chat } from '../chat/chat.ts';
import { clock, MAX_SECONDS, startRecording, type Recording } from './recording.ts';

interface Props {
  /** The widget's language. */
  locale: string;
  /** Where the note is sent: the customer's conversation (opened first when there is none yet). */
  chat: Pick<Chat, 'target' | 'took'>;
  /** A note the upload could not send, for the attach tray (which says why and sends it again). */
  onUnsent: (file: File) => void;
  /** Sent, cancelled or refused and dismissed: the composer comes back. */
  onClose: () => void;
}

/**
 * Recording a voice note, in the composer's place: it asks for the microphone as it opens, shows
 * the time recorded (a timer region a screen reader can read), and offers Cancel and Send: Send
 * uploads the note into the conversation at once, showing its progress. At five minutes (the limit
 * for audio) it stops by itself and sends. A refused microphone is said in the customer's language,
 * with a way back to the text box; a refused or failed upload hands the note to the attach tray.
 */
export function Recorder({ locale, chat, onUnsent, onClose }: Props) {
  const t = attachmentStrings(locale);
  const [phase, setPhase] = useState<'asking' | 'recording' | 'denied' | 'sending'>('asking');
  const [progress, setProgress] = useState(0);
  const [seconds, setSeconds] = useState(0);
  const recording = useRef<Recording | undefined>(undefined);
  // The note on its way: Cancel (the recorder going away) stops it.
  const upload = useRef<Upload | undefined>(undefined);
  const sendButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    let gone = false;
    startRecording().then(
      (started) => {
        if (gone) return started.cancel();
        recording.current = started;
        setPhase('recording');
      },
      () => !gone && setPhase('denied'),
    );
    return () => {
      gone = true;
      recording.current?.cancel();
      upload.current?.abort();
    };
  }, []);

  useEffect(() => {
    if (phase !== 'recording') return;
    sendButton.current?.focus();
    const tick = setInterval(() => setSeconds((was) => was + 1), 1000);
    return () => clearInterval(tick);
  }, [phase]);

  const send = async () => {
    const started = recording.current;
    if (!started) return;
    recording.current = undefined;
    setPhase('sending');
    const file = await started.finish();
    try {
      await deliver(chat, file, setProgress, upload);
    } catch (caught) {
      // Cancelled on its way: the recorder has closed already.
      if (caught instanceof ClientError && caught.code === 'aborted') return;
      onUnsent(file);
    }
    onClose();
  };
  useEffect(() => {
    if (seconds >= MAX_SECONDS) void send();
  }, [seconds]);

  return (
    <div class="recorder" role="group" aria-label={t('recorder')}>
      <Status phase={phase} seconds={seconds} progress={progress} t={t} />
      <button type="button" class="link" onClick={onClose}>
        {t('cancel')}
      </button>
      {phase !== 'denied' && (
        <button
          ref={sendButton}
          type="button"
          class="primary"
          disabled={phase !== 'recording'}
          onClick={() => void send()}
        >
          {t('sendNote')}
        </button>
      )}
    </div>
  );
}

/** Sends a note into the customer's conversation (opened first when there is none yet); `upload` holds it, to stop it. */
async function deliver(
  chat: Props['chat'],
  file: File,
  onProgress: (percent: number) => void,
  upload: { current: Upload | undefined },
): Promise<void> {
  const [token, baseUrl, conversationId] = await chat.target(true);
  upload.current = uploadFile(
    { token, baseUrl, conversationId: conversationId! },
    file,
    crypto.randomUUID(),
    onProgress,
  );
  chat.took(await upload.current.done);
}

/** What the recorder says: the time recorded (and the upload's progress once sent), or that the microphone was refused. */
function Status(props: { phase: string; seconds: number; progress: number; t: ReturnType<typeof attachmentStrings> }) {
  const { phase, seconds, progress, t } = props;
  return phase === 'denied' ? (
    <p class="error" role="alert">
      {t('micDenied')}
    </p>
  ) : (
    <>
      <span class="rec-dot" aria-hidden="true" />
      <span role="timer" aria-label={t('recorded', { time: clock(seconds) })}>
        {clock(seconds)}
      </span>
      {phase === 'sending' && <progress max={100} value={progress} aria-label={t('sending', { percent: progress })} />}
    </>
  );
}
