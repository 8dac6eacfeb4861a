import { describe, expect, it } from 'vitest';
import { embeddingsSettings, readEngineConfig } from './config.ts';

describe("the engine's embeddings configuration", () => {
  it('reads an OpenAI-compatible embeddings API (base URL with /v1, model, optional key); without one words alone rank', () => {
    const config = readEngineConfig({
      EMBEDDINGS_BASE_URL: 'http://127.0.0.1:11434/v1',
      EMBEDDINGS_MODEL: 'nomic-embed-text',
      EMBEDDINGS_API_KEY: 'sk-embed',
    });
    expect(embeddingsSettings(config)).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'nomic-embed-text',
      apiKey: 'sk-embed',
      timeoutMs: 30_000,
    });
    expect(embeddingsSettings(readEngineConfig({}))).toBeUndefined();
    expect(embeddingsSettings(readEngineConfig({ EMBEDDINGS_BASE_URL: '', EMBEDDINGS_MODEL: '' }))).toBeUndefined();
  });

  it.each([
    ['a URL without its model', { EMBEDDINGS_BASE_URL: 'http://127.0.0.1:11434/v1' }, 'EMBEDDINGS_MODEL'],
    ['a model without its URL', { EMBEDDINGS_MODEL: 'nomic-embed-text' }, 'EMBEDDINGS_BASE_URL'],
    [
      'a URL that is not http(s)',
      { EMBEDDINGS_BASE_URL: 'ftp://models/v1', EMBEDDINGS_MODEL: 'm' },
      'EMBEDDINGS_BASE_URL',
    ],
    [
      'a timeout under a second',
      { EMBEDDINGS_BASE_URL: 'http://127.0.0.1:11434/v1', EMBEDDINGS_MODEL: 'm', EMBEDDINGS_TIMEOUT_MS: '5' },
      'EMBEDDINGS_TIMEOUT_MS',
    ],
  ])('refuses %s, naming the variable', (_, env, variable) => {
    expect(() => readEngineConfig(env)).toThrow(new RegExp(`${variable}: `));
  });
});
