import { useEffect, useRef, useState } from 'preact/hooks';
import { attachmentStrings } from '../attachments-i18n.ts';
import { clock, MAX_SECONDS, startRecording, type Recording } from './recording.ts';

interface Props {
  /** The widget's language. */
  locale: string;
  /** The recorded note, for the attach tray (which uploads it as a picked file). */
  onFile: (file: File) => void;
  /** Sent, cancelled or refused and dismissed: the composer comes back. */
  onClose: () => void;
}

/**
 * Recording a voice note, in the composer's place: it asks for the microphone as it opens, shows
 * the time recorded (a timer region a screen reader can read), and offers Cancel and Send. At five
 * minutes (the limit for audio) it stops by itself and sends. A refused microphone is said in the
 * customer's language, with a way back to the text box.
 */
export function Recorder({ locale, onFile, onClose }: Props) {
  const t = attachmentStrings(locale);
  const [phase, setPhase] = useState<'asking' | 'recording' | 'denied'>('asking');
  const [seconds, setSeconds] = useState(0);
  const recording = useRef<Recording | undefined>(undefined);
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
    onFile(await started.finish());
    onClose();
  };
  useEffect(() => {
    if (seconds >= MAX_SECONDS) void send();
  }, [seconds]);

  return (
    <div class="recorder" role="group" aria-label={t('recorder')}>
      {phase === 'denied' ? (
        <p class="error" role="alert">
          {t('micDenied')}
        </p>
      ) : (
        <>
          <span class="rec-dot" aria-hidden="true" />
          <span role="timer" aria-label={t('recorded', { time: clock(seconds) })}>
            {clock(seconds)}
          </span>
        </>
      )}
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
