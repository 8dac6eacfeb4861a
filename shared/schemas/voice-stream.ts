import { z } from 'zod';

/**
 * The AI call's stream (`GET /v1/voice-sessions/stream`, a WebSocket; issue 30). Binary messages
 * are audio; text messages are JSON of these shapes.
 *
 * The client sends each turn of the customer as binary audio (one whole WAV, Ogg/Opus, WebM/Opus,
 * M4A or MP3 file; or pieces of one) and then `turn_end`. A whole WAV file is a turn by itself (its
 * header states its length). `barge_in`, or new audio while the AI speaks, stops the rest of the speech.
 */
export const VoiceStreamClientMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('turn_end') }),
  z.strictObject({ type: z.literal('barge_in') }),
]);
export type VoiceStreamClientMessage = z.infer<typeof VoiceStreamClientMessage>;

/**
 * What the engine sends: `transcript` (the customer's words as heard, kept as their message);
 * `answer` (the AI's words, kept as its message), followed by the speech as one or more binary
 * messages, each a whole audio file (one per sentence or so, so that a barge-in stops what is left),
 * then `answer_end`; `handover` when the AI handed the conversation to people (the call's words go
 * on as messages for them); `error` for a turn that could not be taken (the call goes on);
 * `call_ended` just before the engine closes the stream because the call was ended.
 */
export const VoiceStreamServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), call_id: z.string() }),
  z.object({ type: z.literal('transcript'), text: z.string() }),
  z.object({ type: z.literal('answer'), text: z.string() }),
  z.object({ type: z.literal('answer_end'), interrupted: z.boolean() }),
  z.object({ type: z.literal('handover'), reason: z.string() }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
  z.object({ type: z.literal('call_ended'), ended_by: z.string() }),
]);
export type VoiceStreamServerMessage = z.infer<typeof VoiceStreamServerMessage>;
