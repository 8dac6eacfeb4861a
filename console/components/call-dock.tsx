import { useEffect, useRef, useState } from 'preact/hooks';
import { callClock } from '../../shared/call-peer.ts';
import { CallDesk, type CallDeskState } from '../call-desk.ts';

/**
 * Calls in the console (issue 30): a call that rings shows as the dialog "Incoming call" with
 * Accept and Decline; the call taken shows its timer, Mute and Hang up, and opens its conversation.
 */
export function CallDock({
  token,
  accountId,
  onOpen,
}: {
  token: string;
  accountId: number;
  onOpen: (conversationId: number) => void;
}) {
  const [desk, setDesk] = useState<CallDesk>();
  const [state, setState] = useState<CallDeskState>();
  const audio = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    const made = new CallDesk(token, accountId);
    setDesk(made);
    setState(made.state);
    const unsubscribe = made.subscribe(() => setState(made.state));
    return () => {
      unsubscribe();
      made.close();
    };
  }, [token, accountId]);
  const ring = state?.ringing[0];
  const accept = async (callId: string) => {
    const conversation = await desk!.accept(callId, audio.current!);
    if (conversation !== undefined) onOpen(conversation);
  };
  return (
    <>
      <audio ref={audio} autoplay />
      {ring && !state.active && (
        <div class="banner call-ring" role="dialog" aria-label="Incoming call">
          <p>
            Incoming call{ring.customer_name ? ` from ${ring.customer_name}` : ''} · conversation {ring.conversation_id}
          </p>
          <button type="button" class="primary" onClick={() => void accept(ring.call_id)}>
            Accept
          </button>
          <button type="button" onClick={() => desk!.decline(ring.call_id)}>
            Decline
          </button>
        </div>
      )}
      {state?.active && <ActiveCall desk={desk!} state={state} active={state.active} />}
      {state?.error && (
        <p class="error banner" role="alert">
          {state.error}
        </p>
      )}
    </>
  );
}

function ActiveCall({
  desk,
  state,
  active,
}: {
  desk: CallDesk;
  state: CallDeskState;
  active: NonNullable<CallDeskState['active']>;
}) {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const clock = setInterval(() => setSeconds(Math.floor((Date.now() - active.since) / 1000)), 1000);
    return () => clearInterval(clock);
  }, [active.since]);
  return (
    <div class="banner call-ring" role="region" aria-label="Call">
      <p>
        On a call · conversation {active.conversation_id} ·{' '}
        <span role="timer" aria-label={`Call ${callClock(seconds)}`}>
          {callClock(seconds)}
        </span>
      </p>
      <button type="button" aria-pressed={state.muted} onClick={() => desk.mute(!state.muted)}>
        Mute
      </button>
      <button type="button" onClick={() => desk.hangUp()}>
        Hang up
      </button>
    </div>
  );
}
