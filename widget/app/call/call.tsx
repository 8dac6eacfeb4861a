/**
 * Calls (issue 30): this chunk loads only when the inbox offers calls now (`features.calls`), and
 * the call itself (call-session.ts: with the AI over the BFF's stream, or with a person over WebRTC)
 * only when Call is pressed. It shows Call; while calling, Hang up; while talking (with a person
 * or the AI), the timer, Mute and Hang up, and with the AI what is happening (a handover rings
 * people). When the call ends, its line ("Call, 3 min 12 s") comes into the transcript from the BFF.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { callClock } from '../../../shared/call-peer.ts';
import type { Chat } from '../chat/chat.ts';
import { useI18n } from '../i18n/context.ts';
import { LABELS } from './call-words.ts';
import type { CallPhase, PlacedCall } from './call-phase.ts';

export const CSS = `
.call{display:flex;align-items:center;gap:8px;padding:6px 14px;border-bottom:1px solid var(--p-border);font-size:14px}
.call p{margin:0;margin-inline-end:auto}
.call [role=timer]{font-variant-numeric:tabular-nums}
.call .hang-up{background:#b3261e;color:#fff;border-color:#b3261e}
`;

const session = () => import('./call-session.ts');

export function Call({ chat, state }: { chat: Chat; state: Chat['state'] }) {
  const { locale } = useI18n();
  const words = LABELS[locale.slice(0, 2)] ?? LABELS['en']!;
  const [phase, setPhase] = useState<CallPhase | 'idle'>('idle');
  const [muted, setMuted] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const placed = useRef<PlacedCall | undefined>(undefined);
  const audio = useRef<HTMLAudioElement>(null);
  // The clock runs from the first answer (a person's or the AI's) to the end, whoever takes over.
  const live = phase === 'talking' || phase === 'ai' || phase === 'ringing' || phase === 'waiting';
  useEffect(() => {
    if (!live) return;
    const since = Date.now();
    setSeconds(0);
    const clock = setInterval(() => setSeconds(Math.floor((Date.now() - since) / 1000)), 1000);
    return () => clearInterval(clock);
  }, [live]);
  // Leaving the page or closing the chat hangs up.
  useEffect(() => () => placed.current?.hangUp(), []);
  const socket = chat.socket();
  const start = async () => {
    if (!socket || !state.conversationId) return;
    setPhase('calling');
    setMuted(false);
    try {
      const { placeCall } = await session();
      placed.current = await placeCall(socket, state.conversationId, audio.current!, setPhase);
    } catch {
      setPhase('failed');
    }
  };
  const busy = phase === 'calling' || live;
  const said = phase === 'missed' || phase === 'failed' ? words[phase] : undefined;
  const withAi = phase === 'ai' || phase === 'ringing' || phase === 'waiting' ? words[phase] : undefined;
  return (
    <div class="call" role="group" aria-label={words.call}>
      <audio ref={audio} autoplay />
      {phase === 'calling' && <p role="status">{words.calling}</p>}
      {withAi && <p role="status">{withAi}</p>}
      {live && (
        <p role="timer" aria-label={`${words.call} ${callClock(seconds)}`}>
          {callClock(seconds)}
        </p>
      )}
      {said && <p role="status">{said}</p>}
      {!busy && !said && <p />}
      {live && (
        <button type="button" aria-pressed={muted} onClick={() => (placed.current?.mute(!muted), setMuted(!muted))}>
          {words.mute}
        </button>
      )}
      {busy ? (
        <button type="button" class="hang-up" onClick={() => placed.current?.hangUp()}>
          {words.hangUp}
        </button>
      ) : (
        <button type="button" class="primary" disabled={!state.conversationId} onClick={() => void start()}>
          {words.call}
        </button>
      )}
    </div>
  );
}
