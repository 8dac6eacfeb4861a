import type { VoiceStreamServerMessage } from './schemas/voice-stream.ts';

/**
 * A call with the AI as the widget makes it (issue 30): `call:start` on the widget's socket answers
 * `with: "ai"` when the AI takes the call, and the widget then opens the WebSocket
 * `AI_CALL_STREAM_PATH?call_id=…` on the BFF, which relays it to the engine's voice stream
 * (shared/schemas/voice-stream.ts: whole audio files as binary turns, `turn_end`, `barge_in`; the
 * engine's text messages and speech come back as they are).
 *
 * Its first message must be `join` with the widget's session token (shared/schemas/ai-call.ts; a
 * browser cannot set headers on a WebSocket, and tokens are never put in URLs); the BFF checks it
 * and the Origin as the widget's socket does. Besides the engine's own messages the BFF sends
 * `ringing` (the AI handed over and the people's consoles ring: the person call of that id may be
 * accepted on the widget's socket) and `nobody_available` (nobody can take it now: the conversation
 * waits for people in the chat). Zod-free: the widget's call chunk takes its values from here.
 */
export const AI_CALL_STREAM_PATH = '/v1/widget/calls/stream';

/** The most bytes of one binary message (one turn's audio): 32 s of 16 kHz 16-bit mono WAV. */
export const AI_CALL_FRAME_BYTES = 1024 * 1024;

/** What the BFF sends on the widget's stream: the engine's messages, and its own two. */
export type AiCallServerMessage =
  VoiceStreamServerMessage | { type: 'ringing'; call_id: string } | { type: 'nobody_available' };
