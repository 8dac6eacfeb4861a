/**
 * The customer's side of a person call once it rings (issue 30): when a person accepts, the
 * microphone's audio is offered to them browser to browser (shared/call-peer.ts); the BFF relays
 * the negotiation to that person only. A call the customer placed rings so; so does one the AI
 * handed over during a call with it (ai-call-session.ts).
 */
import { openCallPeer, type CallPeer } from '../../../shared/call-peer.ts';
import type { CallEnded, CallSignalCommand } from '../../../shared/schemas/call.ts';
import type { WidgetSocket } from '../chat/socket.ts';
import type { CallPhase, PlacedCall } from './call-phase.ts';

/** Waits for a person to take the ringing call `callId`; `tell` hears each phase (talking from their answer on). */
export async function joinPersonCall(
  socket: WidgetSocket,
  callId: string,
  iceServers: string[],
  audio: HTMLAudioElement,
  tell: (phase: CallPhase) => void,
): Promise<PlacedCall> {
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
    peer = await openCallPeer(iceServers, send, audio);
    if (acceptedEarly) void peer.offer();
  } catch {
    // The microphone was refused (or there is none): the people stop ringing.
    socket.emit('call:hang_up', { call_id: callId });
    finish('failed');
  }
  return { hangUp, mute: (muted) => peer?.mute(muted) };
}
