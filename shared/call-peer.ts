/**
 * One side of a person call in the browser (issue 30), shared by the widget's call chunk and the
 * console: the microphone, an RTCPeerConnection with the ICE servers the BFF gave, and WebRTC's
 * negotiation sent and taken as `CallSignalData` over the side's socket. The customer's side makes
 * the offer once a person accepted; the person's side answers it. Browser-safe, no zod.
 */
import type { CallSignalData } from './schemas/call.ts';

export interface CallPeer {
  /** A step of the negotiation from the other side. */
  take(signal: CallSignalData): Promise<void>;
  /** Makes and sends the offer (the customer's side). */
  offer(): Promise<void>;
  mute(muted: boolean): void;
  close(): void;
}

/**
 * Opens the microphone and a peer connection; `send` carries each step to the other side, and the
 * other side's audio plays through `audio`.
 *
 * @example
 * const peer = await openCallPeer(['stun:stun.example:3478'], (signal) => socket.emit('call:signal', { call_id, signal }), audio);
 */
export async function openCallPeer(
  iceServers: string[],
  send: (signal: CallSignalData) => void,
  audio: HTMLAudioElement,
): Promise<CallPeer> {
  const microphone = await navigator.mediaDevices.getUserMedia({ audio: true });
  const connection = new RTCPeerConnection({ iceServers: iceServers.map((urls) => ({ urls })) });
  for (const track of microphone.getTracks()) connection.addTrack(track, microphone);
  connection.onicecandidate = ({ candidate }) => {
    if (candidate) send({ type: 'candidate', candidate: candidate.toJSON() as never });
  };
  connection.ontrack = ({ streams }) => {
    audio.srcObject = streams[0] ?? null;
    void audio.play().catch(() => undefined);
  };
  // Candidates that come before the description they belong to wait for it.
  const early: RTCIceCandidateInit[] = [];
  return {
    async take(signal) {
      if (signal.type === 'candidate') {
        if (connection.remoteDescription) await connection.addIceCandidate(signal.candidate as RTCIceCandidateInit);
        else early.push(signal.candidate as RTCIceCandidateInit);
        return;
      }
      await connection.setRemoteDescription({ type: signal.type, sdp: signal.sdp });
      for (const candidate of early.splice(0)) await connection.addIceCandidate(candidate);
      if (signal.type === 'offer') {
        await connection.setLocalDescription(await connection.createAnswer());
        send({ type: 'answer', sdp: connection.localDescription!.sdp });
      }
    },
    async offer() {
      await connection.setLocalDescription(await connection.createOffer());
      send({ type: 'offer', sdp: connection.localDescription!.sdp });
    },
    mute(muted) {
      for (const track of microphone.getAudioTracks()) track.enabled = !muted;
    },
    close() {
      connection.close();
      for (const track of microphone.getTracks()) track.stop();
      audio.srcObject = null;
    },
  };
}

/** A call's running time as the timer shows it: `3:12`, `1:02:05`. */
export function callClock(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}
