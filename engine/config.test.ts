import { describe, expect, it } from 'vitest';
import { llmSettings, readEngineConfig } from './config.ts';

describe("the standalone engine's configuration", () => {
  it('has defaults that need no services', () => {
    const config = readEngineConfig({});
    expect(config).toMatchObject({
      ENGINE_PORT: 8081,
      HOST: '127.0.0.1',
      WEBHOOK_POLL_MS: 1000,
      WEBHOOK_ALLOWED_PRIVATE_ORIGINS: [],
      TRUST_PROXY_HOPS: 0,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
  });

  it('reads the operator token that opens /operator/v1/accounts, and refuses one that can be guessed', () => {
    expect(readEngineConfig({}).ENGINE_OPERATOR_TOKEN).toBeUndefined();
    expect(readEngineConfig({ ENGINE_OPERATOR_TOKEN: 'o'.repeat(32) }).ENGINE_OPERATOR_TOKEN).toBe('o'.repeat(32));
    expect(() => readEngineConfig({ ENGINE_OPERATOR_TOKEN: 'o'.repeat(31) })).toThrow(
      /ENGINE_OPERATOR_TOKEN: must be at least 32 characters/,
    );
  });

  it('reads the private origins webhooks may reach as exact origins, and a Redis URL', () => {
    const config = readEngineConfig({
      WEBHOOK_ALLOWED_PRIVATE_ORIGINS: 'http://127.0.0.1:8080, https://bff.internal',
      REDIS_URL: 'redis://127.0.0.1:6379',
      SECRETS_KEYS: 's1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc',
    });
    expect(config.WEBHOOK_ALLOWED_PRIVATE_ORIGINS).toEqual(['http://127.0.0.1:8080', 'https://bff.internal']);
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
  });

  it('reads an OpenAI-compatible LLM (base URL with /v1, model, optional key); without one the retrieval brain answers', () => {
    const config = readEngineConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'llama3.1:8b' });
    expect(llmSettings(config)).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'llama3.1:8b',
      apiKey: undefined,
      timeoutMs: 20_000,
    });
    expect(llmSettings(readEngineConfig({}))).toBeUndefined();
  });

  it.each([
    ['an LLM URL without its model', { LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }, 'LLM_MODEL'],
    ['an LLM model without its URL', { LLM_MODEL: 'llama3.1:8b' }, 'LLM_BASE_URL'],
    ['an LLM URL that is not http(s)', { LLM_BASE_URL: 'ftp://models.internal/v1', LLM_MODEL: 'm' }, 'LLM_BASE_URL'],
    [
      'an LLM timeout under a second',
      { LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'm', LLM_TIMEOUT_MS: '5' },
      'LLM_TIMEOUT_MS',
    ],
    ['a port out of range', { ENGINE_PORT: '70000' }, 'ENGINE_PORT'],
    ['a database URL of another kind', { DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    ['a Redis URL of another kind', { REDIS_URL: 'http://cache:6379' }, 'REDIS_URL'],
    ['Redis (several processes) without a shared secrets key', { REDIS_URL: 'redis://127.0.0.1:6379' }, 'SECRETS_KEYS'],
    ['a secrets key of the wrong length', { SECRETS_KEYS: 's1:c2hvcnQ' }, 'SECRETS_KEYS'],
    ['a webhook poll under 100 ms', { WEBHOOK_POLL_MS: '10' }, 'WEBHOOK_POLL_MS'],
    ['a count of trusted proxies that is not a small whole number', { TRUST_PROXY_HOPS: '-1' }, 'TRUST_PROXY_HOPS'],
    [
      'an allowed private origin that is not a URL',
      { WEBHOOK_ALLOWED_PRIVATE_ORIGINS: '127.0.0.1:8080' },
      'WEBHOOK_ALLOWED_PRIVATE_ORIGINS',
    ],
    [
      'an allowed private origin of another scheme',
      { WEBHOOK_ALLOWED_PRIVATE_ORIGINS: 'ftp://files.internal' },
      'WEBHOOK_ALLOWED_PRIVATE_ORIGINS',
    ],
  ])('stops with a message naming the variable on %s', (_name, env, mentioned) => {
    expect(() => readEngineConfig(env)).toThrow(mentioned);
  });

  it('takes private exceptions with a path, which then cover only that path and what is under it', () => {
    const config = readEngineConfig({ WEBHOOK_ALLOWED_PRIVATE_ORIGINS: 'http://127.0.0.1:8080/v1/engine-webhooks' });
    expect(config.WEBHOOK_ALLOWED_PRIVATE_ORIGINS).toEqual(['http://127.0.0.1:8080/v1/engine-webhooks']);
  });
});
