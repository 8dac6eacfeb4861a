import type { Chat } from '../chat/chat.ts';
import { useI18n } from '../i18n/context.ts';

/**
 * The microphone button's name in every language the widget speaks. It comes with this small chunk
 * (loaded just after the composer shows), so the first download carries none of the voice notes.
 */
const LABELS: Record<string, string> = {
  en: 'Record a voice note',
  de: 'Sprachnachricht aufnehmen',
  fr: 'Enregistrer un message vocal',
  es: 'Grabar una nota de voz',
  ar: 'تسجيل رسالة صوتية',
  ja: '音声メッセージを録音',
};

// The recorder itself: it loads when the microphone is pressed.
const recorder = () => import('./voice.tsx');

/**
 * The composer's microphone: pressing it loads the recorder, which takes the composer's place until
 * the note is sent into the conversation (`chat`) or cancelled; a note the upload could not send
 * goes to `onFiles` (the attach tray, which says why and sends it again). Browsers without
 * MediaRecorder (or a page not allowed the microphone by its permissions policy) get no button.
 */
export function Mic({ chat, onFiles }: { chat: Pick<Chat, 'target' | 'took'>; onFiles: (files: File[]) => void }) {
  const { locale } = useI18n();
  if (typeof MediaRecorder === 'undefined' || !navigator.mediaDevices) return null;
  return (
    <button
      type="button"
      class="icon mic"
      aria-label={LABELS[locale] ?? LABELS['en']}
      onClick={({ currentTarget }) => void recorder().then((chunk) => chunk.record(currentTarget, chat, onFiles))}
    >
      <svg
        viewBox="0 0 24 24"
        width="20"
        height="20"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        stroke-width="2"
        stroke-linecap="round"
        stroke-linejoin="round"
      >
        <path d="M12 3a3 3 0 0 0-3 3v5a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3M5 11a7 7 0 0 0 14 0M12 18v3" />
      </svg>
    </button>
  );
}
