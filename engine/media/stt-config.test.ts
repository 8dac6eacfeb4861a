import { describe, expect, it } from 'vitest';
import { readEngineConfig } from '../config.ts';
import { sttSettings } from './stt-config.ts';

describe("the engine's transcription configuration", () => {
  it('reads an OpenAI-compatible transcription API (base URL with /v1, model, optional key); without one voice notes are not heard', () => {
    const config = readEngineConfig({
      STT_BASE_URL: 'http://127.0.0.1:8080/v1',
      STT_MODEL: 'large-v3',
      STT_API_KEY: 'sk-stt',
    });
    expect(sttSettings(config)).toEqual({
      baseUrl: 'http://127.0.0.1:8080/v1',
      model: 'large-v3',
      apiKey: 'sk-stt',
      timeoutMs: 60_000,
    });
    expect(sttSettings(readEngineConfig({ STT_BASE_URL: 'http://stt.internal/v1' }))?.model).toBe('whisper-1');
    expect(sttSettings(readEngineConfig({}))).toBeUndefined();
    expect(sttSettings(readEngineConfig({ STT_BASE_URL: '' }))).toBeUndefined();
  });

  it.each([
    ['a URL that is not http(s)', { STT_BASE_URL: 'ftp://speech/v1' }, 'STT_BASE_URL'],
    ['something that is not a URL', { STT_BASE_URL: 'whisper' }, 'STT_BASE_URL'],
    ['a timeout under a second', { STT_BASE_URL: 'http://127.0.0.1:8080/v1', STT_TIMEOUT_MS: '5' }, 'STT_TIMEOUT_MS'],
    ['a storage cap under a megabyte', { MEDIA_STORAGE_MAX_BYTES: '1000' }, 'MEDIA_STORAGE_MAX_BYTES'],
  ])('refuses %s at start, naming the variable', (_, env, variable) => {
    expect(() => readEngineConfig(env)).toThrow(new RegExp(`${variable}: `));
  });
});
