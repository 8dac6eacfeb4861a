/**
 * One AI call's stream (issue 30), the protocol of shared/schemas/voice-stream.ts on one WebSocket:
 * the customer's audio gathered into turns, each turn heard and answered in order, the answer spoken
 * back piece by piece until it is done or the customer barges in.
 */
import type { WebSocket } from 'ws';
import { ParleyError, VoiceStreamClientMessage, type VoiceStreamServerMessage } from '../../shared/index.ts';
import { MEDIA_KIND_CAPS, type Logger } from '../../shared/server/index.ts';
import type { CallRecord } from '../store/calls.ts';
import { takeTurn, type AiTurnDeps } from './ai-turn.ts';
import type { Speaker } from './speaker.ts';
import { speechPieces } from './speech-pieces.ts';

export interface CallStreamDeps extends AiTurnDeps {
  speaker: Speaker;
  logger: Logger;
}

/** Whether `bytes` are one whole WAV file: its RIFF header states its own length, so it is a turn by itself. */
function isWholeWav(bytes: Buffer): boolean {
  return (
    bytes.length >= 44 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WAVE' &&
    bytes.readUInt32LE(4) + 8 === bytes.length
  );
}

/** How an answer is spoken on `socket`: piece by piece, until it is done or `bargeIn` stops it. */
function speaking(socket: WebSocket, speaker: Speaker, send: (message: VoiceStreamServerMessage) => void) {
  // The speech under way, stopped by a barge-in.
  let current: AbortController | undefined;

  async function speak(text: string): Promise<void> {
    const controller = new AbortController();
    current = controller;
    send({ type: 'answer', text });
    try {
      for (const piece of speechPieces(text)) {
        const audio = await speaker.speak(piece, controller.signal);
        if (controller.signal.aborted || socket.readyState !== socket.OPEN) break;
        socket.send(audio);
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    } finally {
      current = undefined;
      if (socket.readyState === socket.OPEN) send({ type: 'answer_end', interrupted: controller.signal.aborted });
    }
  }

  return { speak, bargeIn: () => current?.abort() };
}

/** Serves the call on `socket` until it closes. */
export function serveCallStream(socket: WebSocket, call: CallRecord, deps: CallStreamDeps): void {
  const send = (message: VoiceStreamServerMessage) => socket.send(JSON.stringify(message));
  let pieces: Buffer[] = [];
  let gathered = 0;
  let turns = 0;
  // Turns are taken one after another, in the order they were spoken.
  let queue: Promise<void> = Promise.resolve();

  const failed = (error: unknown) => {
    if (error instanceof ParleyError) return send({ type: 'error', code: error.code, message: error.message });
    deps.logger.error({ err: error, call: call.id }, 'a turn of an AI call failed');
    send({ type: 'error', code: 'internal', message: 'The turn could not be answered; say it again.' });
  };

  const { speak, bargeIn } = speaking(socket, deps.speaker, send);

  const take = (audio: Buffer) => {
    const number = ++turns;
    queue = queue
      .then(async () => {
        const outcome = await takeTurn(deps, call, audio, number);
        send({ type: 'transcript', text: outcome.heard });
        if (outcome.handover !== undefined) send({ type: 'handover', reason: outcome.handover });
        if (outcome.answer) await speak(outcome.answer);
      })
      .catch(failed);
  };

  const onAudio = (chunk: Buffer) => {
    bargeIn();
    if (pieces.length === 0 && isWholeWav(chunk)) return take(chunk);
    gathered += chunk.length;
    if (gathered > MEDIA_KIND_CAPS.audio.bytes) {
      pieces = [];
      gathered = 0;
      return failed(new ParleyError('payload_too_large', 'A turn may hold 10 MB of audio at most.'));
    }
    pieces.push(chunk);
  };

  const onTurnEnd = () => {
    if (pieces.length === 0) return failed(new ParleyError('invalid_request', 'turn_end came without audio.'));
    const audio = Buffer.concat(pieces);
    pieces = [];
    gathered = 0;
    take(audio);
  };

  socket.on('message', (data, isBinary) => {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (isBinary) return onAudio(bytes);
    const parsed = VoiceStreamClientMessage.safeParse(parseJson(bytes.toString('utf8')));
    if (!parsed.success)
      return failed(
        new ParleyError('invalid_request', 'A text message is {"type":"turn_end"} or {"type":"barge_in"}.'),
      );
    if (parsed.data.type === 'barge_in') return bargeIn();
    onTurnEnd();
  });
  socket.on('close', bargeIn);
  send({ type: 'ready', call_id: call.id });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
