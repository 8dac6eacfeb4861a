/**
 * One turn of a call with the AI (issue 30): the customer's audio heard by the transcription API,
 * then answered exactly as a typed message is (`sendMessage`: kept as the customer's message, the
 * brain's answer kept as the AI's, actions and handover included, events to the feed and webhooks).
 */
import { ParleyError, type EngineEvent } from '../../shared/index.ts';
import { kindOf, MEDIA_KIND_CAPS, sniffAudioVideo } from '../../shared/server/index.ts';
import type { ConversationService } from '../conversations/index.ts';
import { TranscriptionUnavailableError, type Transcriber } from '../media/transcriber.ts';
import type { CallRecord } from '../store/calls.ts';
import { ownerCaller } from './calls.ts';

export interface AiTurnDeps {
  transcriber: Transcriber;
  conversations: Pick<ConversationService, 'sendMessage'>;
}

/** What a turn came to: the words heard, the AI's words (empty when it stayed silent), a handover's reason. */
export interface TurnOutcome {
  heard: string;
  answer: string;
  handover: string | undefined;
}

/** The audio's type, refused unless it is audio this engine takes, of a length it takes. */
function audioTypeOf(audio: Buffer): string {
  const facts = sniffAudioVideo(audio);
  if (!facts || kindOf(facts.type) !== 'audio')
    throw new ParleyError('unsupported_media_type', 'A turn must be audio: WAV, Ogg/Opus, WebM/Opus, M4A or MP3.');
  if ((facts.durationS ?? 0) > MEDIA_KIND_CAPS.audio.seconds)
    throw new ParleyError('payload_too_large', `A turn may last ${MEDIA_KIND_CAPS.audio.seconds} s at most.`);
  return facts.type;
}

async function hear(transcriber: Transcriber, audio: Buffer, name: string): Promise<string> {
  const type = audioTypeOf(audio);
  try {
    const words = await transcriber.transcribe({ bytes: audio, type, name });
    if (!words) throw new ParleyError('unprocessable', 'No words could be heard in the turn.');
    return words;
  } catch (error) {
    if (!(error instanceof TranscriptionUnavailableError)) throw error;
    throw new ParleyError('upstream_unavailable', `The transcription API could not hear the turn: ${error.message}`);
  }
}

/** The AI's words among a message's events (a greeting, then the answer), and a handover if one was made. */
function spokenOf(events: readonly EngineEvent[]): Pick<TurnOutcome, 'answer' | 'handover'> {
  const words: string[] = [];
  let handover: string | undefined;
  for (const event of events) {
    if (event.type === 'conversation.reply') words.push(event.data.text);
    if (event.type === 'conversation.handover') handover = event.data.reason;
  }
  return { answer: words.join('\n\n'), handover };
}

/** Hears the `number`th turn of the call and answers it; its message id makes a retried turn count once. */
export async function takeTurn(
  { transcriber, conversations }: AiTurnDeps,
  call: CallRecord,
  audio: Buffer,
  number: number,
): Promise<TurnOutcome> {
  const heard = await hear(transcriber, audio, `${call.id}-${number}`);
  const { events } = await conversations.sendMessage(ownerCaller(call.owner), call.conversationId, {
    text: heard,
    message_id: `${call.id}.turn.${number}`,
  });
  return { heard, ...spokenOf(events) };
}
