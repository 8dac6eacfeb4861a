import { z } from 'zod';

/**
 * A client of any OpenAI-compatible transcription API (`POST {STT_BASE_URL}/audio/transcriptions`,
 * multipart with `file` and `model`, answering `{ text }`): the base holds its `/v1` as LLM_BASE_URL
 * does, a key goes as a Bearer token, each request has a timeout. It runs in the media worker, never
 * in a request, so a slow API delays a note's answer, not anyone's upload.
 */
export interface SttSettings {
  /** The API's base, with its `/v1` (e.g. `http://127.0.0.1:8080/v1`). */
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  /** How long one transcription may take; 60 s unless told. */
  timeoutMs?: number | undefined;
}

/** The API did not give a transcript (down, too slow, refusing, an answer of the wrong shape). */
export class TranscriptionUnavailableError extends Error {
  override readonly name = 'TranscriptionUnavailableError';
}

export interface Transcriber {
  /** The words of one recording. Throws TranscriptionUnavailableError when the API does not give them. */
  transcribe(recording: { bytes: Buffer; type: string; name: string }): Promise<string>;
}

/** The most characters of a transcript read (a five-minute note is some 5,000). */
const MAX_TRANSCRIPT = 20_000;

const TranscriptionAnswer = z.object({ text: z.string() });

/** @example createTranscriber({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'whisper-1' }).transcribe(note) */
export function createTranscriber(settings: SttSettings, options: { fetch?: typeof fetch } = {}): Transcriber {
  const url = `${settings.baseUrl.replace(/\/$/, '')}/audio/transcriptions`;
  const post = options.fetch ?? globalThis.fetch;
  return {
    async transcribe({ bytes, type, name }) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
      form.append('model', settings.model);
      form.append('response_format', 'json');
      let response: Response;
      try {
        response = await post(url, {
          method: 'POST',
          body: form,
          headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
          signal: AbortSignal.timeout(settings.timeoutMs ?? 60_000),
        });
      } catch (error) {
        throw new TranscriptionUnavailableError(`the API could not be reached: ${(error as Error).message}`);
      }
      const body = await response.text().catch(() => '');
      if (!response.ok)
        throw new TranscriptionUnavailableError(`the API answered ${response.status} ${body.slice(0, 300)}`);
      let answer: unknown;
      try {
        answer = JSON.parse(body);
      } catch {
        throw new TranscriptionUnavailableError('the API answered something other than JSON');
      }
      const parsed = TranscriptionAnswer.safeParse(answer);
      if (!parsed.success) throw new TranscriptionUnavailableError('the API answered without a text');
      return parsed.data.text.trim().slice(0, MAX_TRANSCRIPT);
    },
  };
}
