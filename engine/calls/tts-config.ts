import { z } from 'zod';
import { HttpUrl, optionalVariable } from '../../shared/server/index.ts';
import type { TtsSettings } from './speaker.ts';

/**
 * The speech API's variables (issue 30): any OpenAI-compatible API's base with its `/v1` that
 * answers `POST /audio/speech` (a local Piper or Kokoro server behind an OpenAI-compatible front,
 * vLLM-Omni, a hosted one), the model and voice it is asked for, and a key when it needs one. With
 * the transcription API (STT_BASE_URL) too, customers can call the AI; without either, calls reach people only.
 */
export const TtsVariables = {
  TTS_BASE_URL: optionalVariable(HttpUrl),
  /** OpenAI's API wants `tts-1` (or `gpt-4o-mini-tts`); many local servers ignore it. */
  TTS_MODEL: z.string().min(1).max(200).default('tts-1'),
  TTS_VOICE: z.string().min(1).max(200).default('alloy'),
  TTS_API_KEY: optionalVariable(z.string().min(1).max(500)),
  TTS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
};

/** The speech settings of checked variables, or undefined when no speech API is configured. */
export function ttsSettings(value: {
  TTS_BASE_URL?: string | undefined;
  TTS_MODEL: string;
  TTS_VOICE: string;
  TTS_API_KEY?: string | undefined;
  TTS_TIMEOUT_MS: number;
}): TtsSettings | undefined {
  if (!value.TTS_BASE_URL) return undefined;
  return {
    baseUrl: value.TTS_BASE_URL,
    model: value.TTS_MODEL,
    voice: value.TTS_VOICE,
    apiKey: value.TTS_API_KEY,
    timeoutMs: value.TTS_TIMEOUT_MS,
  };
}
