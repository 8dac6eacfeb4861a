/**
 * The customer's side of a person call (issue 30), loaded when Call is pressed: it rings the
 * people over the chat's socket, and once a person accepts, offers the microphone's audio to them
 * browser to browser (shared/call-peer.ts); the BFF relays the negotiation to that person only.
 */
import { openCallPeer, type CallPeer } from '../../../shared/call-peer.ts';
import type { CallEnded, CallSignalCommand } from '../../../shared/schemas/call.ts';
import type { WidgetSocket } from '../chat/socket.ts';

export type CallPhase = 'calling' | 'talking' | 'ended' | 'missed' | 'failed';

export interface PlacedCall {
  hangUp(): void;
  mute(muted: boolean): void;
}

const ACK_MS = 10_000;

/** Calls the people of the conversation; `tell` hears each phase (talking from the person's answer on). */
export async function placeCall(
  socket: WidgetSocket,
  conversationId: string,
  audio: HTMLAudioElement,
  tell: (phase: CallPhase) => void,
): Promise<PlacedCall> {
  const joined = await socket.timeout(ACK_MS).emitWithAck('call:start', { conversation_id: conversationId });
  if (!joined.ok) throw new Error(joined.error.code);
  const callId = joined.data.call_id;
  let peer: CallPeer | undefined;
  // A person may accept before the microphone is open: the offer follows once it is.
  let acceptedEarly = false;
  const signalled = ({ call_id, signal }: CallSignalCommand) => {
    if (call_id === callId) void peer?.take(signal);
  };
  const accepted = ({ call_id }: { call_id: string }) => {
    if (call_id !== callId) return;
    tell('talking');
    if (peer) void peer.offer();
    else acceptedEarly = true;
  };
  const finish = (phase: CallPhase) => {
    socket.off('call:signalled', signalled).off('call:accepted', accepted).off('call:ended', ended);
    peer?.close();
    tell(phase);
  };
  const ended = (end: CallEnded) => {
    if (end.call_id === callId) finish(end.missed ? 'missed' : 'ended');
  };
  socket.on('call:signalled', signalled).on('call:accepted', accepted).on('call:ended', ended);
  const send = (signal: CallSignalCommand['signal']) => socket.emit('call:signal', { call_id: callId, signal });
  const hangUp = () => {
    socket.emit('call:hang_up', { call_id: callId });
    finish('ended');
  };
  try {
    peer = await openCallPeer(joined.data.ice_servers, send, audio);
    if (acceptedEarly) void peer.offer();
  } catch {
    // The microphone was refused (or there is none): the people stop ringing.
    socket.emit('call:hang_up', { call_id: callId });
    finish('failed');
  }
  return { hangUp, mute: (muted) => peer?.mute(muted) };
}
