/**
 * A client of any OpenAI-compatible speech API (`POST {TTS_BASE_URL}/audio/speech`, JSON with
 * `model`, `input`, `voice`, `response_format`, answering the audio's bytes): the base holds its
 * `/v1` as STT_BASE_URL does, a key goes as a Bearer token, each request has a timeout and may be
 * stopped (a barge-in stops the speech not yet made).
 */
export interface TtsSettings {
  /** The API's base, with its `/v1` (e.g. `http://127.0.0.1:8880/v1`). */
  baseUrl: string;
  model: string;
  voice: string;
  apiKey?: string | undefined;
  /** How long one answer's speech may take; 30 s unless told. */
  timeoutMs?: number | undefined;
}

/** The API did not give speech (down, too slow, refusing, an empty answer). */
export class SpeechUnavailableError extends Error {
  override readonly name = 'SpeechUnavailableError';
}

export interface Speaker {
  /** WAV bytes of `text` spoken. Throws SpeechUnavailableError when the API does not give them, AbortError when stopped. */
  speak(text: string, signal?: AbortSignal): Promise<Buffer>;
}

/** The most bytes of speech taken for one piece of an answer (a minute of 24 kHz 16-bit WAV is 2.9 MB). */
const MAX_SPEECH_BYTES = 16 * 1024 * 1024;

/** @example createSpeaker({ baseUrl: 'http://127.0.0.1:8880/v1', model: 'tts-1', voice: 'alloy' }).speak('Hello.') */
export function createSpeaker(settings: TtsSettings, options: { fetch?: typeof fetch } = {}): Speaker {
  const url = `${settings.baseUrl.replace(/\/$/, '')}/audio/speech`;
  const post = options.fetch ?? globalThis.fetch;
  return {
    async speak(text, signal) {
      const timeout = AbortSignal.timeout(settings.timeoutMs ?? 30_000);
      let response: Response;
      try {
        response = await post(url, {
          method: 'POST',
          body: JSON.stringify({ model: settings.model, input: text, voice: settings.voice, response_format: 'wav' }),
          headers: {
            'content-type': 'application/json',
            ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
          },
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (error) {
        if (signal?.aborted) throw error;
        throw new SpeechUnavailableError(`the API could not be reached: ${(error as Error).message}`);
      }
      if (!response.ok) {
        const body = await response.text().catch(() => '');
        throw new SpeechUnavailableError(`the API answered ${response.status} ${body.slice(0, 300)}`);
      }
      const bytes = Buffer.from(await response.arrayBuffer());
      if (bytes.length === 0 || bytes.length > MAX_SPEECH_BYTES)
        throw new SpeechUnavailableError(`the API answered ${bytes.length} bytes of speech`);
      return bytes;
    },
  };
}
