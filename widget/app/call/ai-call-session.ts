/**
 * A call with the AI (issue 30) over the BFF's stream (shared/ai-call-stream.ts): the stream is
 * joined with the chat's session token, each turn the customer speaks goes as a WAV file, the AI's
 * speech is played, and speaking over it stops it (barge-in: here at once, and at the engine). When
 * the AI hands over, people are rung; a person who accepts takes the call on (person-call.ts) and
 * the stream closes; when nobody can, the customer is told and their words reach people as messages.
 */
import { AI_CALL_STREAM_PATH, type AiCallServerMessage } from '../../../shared/ai-call-stream.ts';
import type { CallJoined } from '../../../shared/schemas/call.ts';
import type { WidgetSocket } from '../chat/socket.ts';
import type { CallPhase, PlacedCall } from './call-phase.ts';
import { joinPersonCall } from './person-call.ts';
import { openVoiceIo, type VoiceIo } from './voice-io.ts';

/** The session's token, as the chat's socket authenticates with it (asked anew: it may have been renewed). */
const tokenOf = (socket: WidgetSocket) =>
  new Promise<string>((resolve) => socket.auth((data) => resolve((data as { token: string }).token)));

/** The BFF's stream of the call, on its origin as the chat's socket is, joined once it opens. */
function openStream(socket: WidgetSocket, callId: string): WebSocket {
  const url = new URL(`${AI_CALL_STREAM_PATH}?call_id=${encodeURIComponent(callId)}`, socket.origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const stream = new WebSocket(url);
  stream.binaryType = 'arraybuffer';
  stream.onopen = () => void tokenOf(socket).then((token) => stream.send(JSON.stringify({ type: 'join', token })));
  return stream;
}

/**
 * The AI handed over: people are rung for the person call `callId`; `tookOver` when a person
 * accepts, `missed` when nobody did, `ended` when the person's call is over.
 */
function ringPeople(
  socket: WidgetSocket,
  callId: string,
  joined: CallJoined,
  audio: HTMLAudioElement,
  on: { tookOver(): void; missed(): void; ended(phase: CallPhase): void },
): Promise<PlacedCall> {
  let taken = false;
  return joinPersonCall(socket, callId, joined.ice_servers, audio, (phase) => {
    if (phase === 'talking') {
      taken = true;
      on.tookOver();
    } else if (taken) on.ended(phase);
    else if (phase === 'missed') on.missed();
  });
}

export function callTheAi(
  socket: WidgetSocket,
  joined: CallJoined,
  audio: HTMLAudioElement,
  tell: (phase: CallPhase) => void,
): PlacedCall {
  const stream = openStream(socket, joined.call_id);
  let voice: VoiceIo | undefined;
  // The person call a handover rang, and whether a person took it.
  let person: PlacedCall | undefined;
  let withPerson = false;
  // The rest of an answer the customer talked over is not played.
  let dropping = false;
  let ready = false;
  let ended = false;
  const send = (data: string | ArrayBuffer) => {
    if (stream.readyState === WebSocket.OPEN) stream.send(data);
  };
  const closeAi = () => {
    voice?.close();
    voice = undefined;
    if (stream.readyState <= WebSocket.OPEN) stream.close(1000);
  };
  const bargeIn = () => {
    voice?.stop();
    dropping = true;
    send(JSON.stringify({ type: 'barge_in' }));
  };
  const finish = (phase: CallPhase) => {
    if (ended) return;
    ended = true;
    closeAi();
    tell(phase);
  };
  // The microphone opens once the engine is ready: each start of speech stops the AI, each turn goes.
  const listen = () =>
    openVoiceIo({ speaking: bargeIn, turn: send }).then(
      (opened) => ((voice = opened), tell('ai')),
      () => finish('failed'),
    );
  const take = (message: AiCallServerMessage) => {
    if (message.type === 'ready' && !ready) {
      ready = true;
      void listen();
    } else if (message.type === 'answer') dropping = false;
    else if (message.type === 'nobody_available') tell('waiting');
    else if (message.type === 'ringing') {
      tell('ringing');
      const on = {
        tookOver: () => ((withPerson = true), closeAi(), tell('talking')),
        missed: () => ((person = undefined), ended || tell('waiting')),
        ended: finish,
      };
      void ringPeople(socket, message.call_id, joined, audio, on).then((placed) => {
        person = placed;
        if (ended) placed.hangUp();
      });
    }
  };
  stream.onmessage = ({ data }: MessageEvent<string | ArrayBuffer>) => {
    if (typeof data !== 'string') {
      if (!dropping) void voice?.play(data).catch(() => undefined);
      return;
    }
    take(JSON.parse(data) as AiCallServerMessage);
  };
  stream.onclose = () => {
    if (!withPerson) finish(ready ? 'ended' : 'failed');
  };
  return {
    hangUp() {
      person?.hangUp();
      finish('ended');
    },
    mute(muted) {
      voice?.mute(muted);
      person?.mute(muted);
    },
  };
}
