import { z } from 'zod';
import { HttpUrl, optionalVariable } from '../../shared/server/index.ts';
import type { SttSettings } from './transcriber.ts';

/**
 * The transcription API's variables (issue 30): any OpenAI-compatible API's base with its `/v1` that
 * answers `POST /audio/transcriptions` (whisper.cpp's server, faster-whisper servers, vLLM, a hosted
 * one), the model it is asked for, and a key when it needs one. Set, voice notes are transcribed and
 * answered; unset, the AI says it cannot listen to them yet and offers a person.
 */
export const SttVariables = {
  STT_BASE_URL: optionalVariable(HttpUrl),
  /** whisper.cpp's server ignores it; OpenAI's API wants `whisper-1`. */
  STT_MODEL: z.string().min(1).max(200).default('whisper-1'),
  STT_API_KEY: optionalVariable(z.string().min(1).max(500)),
  STT_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(60_000),
};

/** The transcription settings of checked variables, or undefined when no transcription API is configured. */
export function sttSettings(value: {
  STT_BASE_URL?: string | undefined;
  STT_MODEL: string;
  STT_API_KEY?: string | undefined;
  STT_TIMEOUT_MS: number;
}): SttSettings | undefined {
  if (!value.STT_BASE_URL) return undefined;
  return {
    baseUrl: value.STT_BASE_URL,
    model: value.STT_MODEL,
    apiKey: value.STT_API_KEY,
    timeoutMs: value.STT_TIMEOUT_MS,
  };
}
