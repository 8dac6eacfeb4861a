import { describe, expect, it } from 'vitest';
import { ConfigError, readDemoConfig } from './config.ts';

describe('the start-up configuration', () => {
  it('has defaults that need no services', () => {
    const config = readDemoConfig({});
    expect(config).toMatchObject({
      port: 8080,
      enginePort: 8081,
      host: '127.0.0.1',
      aiApiUrl: undefined,
      databaseUrl: undefined,
    });
    expect(config.dataDir).toMatch(/\.data$/);
  });

  it("passes the transcription API (STT_BASE_URL, STT_MODEL, STT_API_KEY) to the demo's engine", () => {
    expect(readDemoConfig({}).stt).toBeUndefined();
    expect(
      readDemoConfig({ STT_BASE_URL: 'http://127.0.0.1:9000/v1', STT_MODEL: 'base.en', STT_API_KEY: 'k' }).stt,
    ).toMatchObject({ baseUrl: 'http://127.0.0.1:9000/v1', model: 'base.en', apiKey: 'k' });
    expect(() => readDemoConfig({ STT_BASE_URL: 'not a url' })).toThrow('STT_BASE_URL');
  });

  it('reads allowed origins as exact origins', () => {
    expect(
      readDemoConfig({ DEMO_ALLOWED_ORIGINS: 'https://shop.example, http://localhost:3000' }).demoAllowedOrigins,
    ).toEqual(['https://shop.example', 'http://localhost:3000']);
  });

  it('treats empty variables as unset', () => {
    expect(readDemoConfig({ DATABASE_URL: '', AI_API_URL: '', REDIS_URL: '' })).toMatchObject({
      databaseUrl: undefined,
      aiApiUrl: undefined,
      redisUrl: undefined,
    });
  });

  it('takes a Redis URL (plain or TLS) for running several nodes', () => {
    expect(
      readDemoConfig({
        REDIS_URL: 'redis://127.0.0.1:6379',
        SECRETS_KEYS: 's1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc',
      }).redisUrl,
    ).toBe('redis://127.0.0.1:6379');
    expect(
      readDemoConfig({
        REDIS_URL: 'rediss://cache.internal:6380',
        SECRETS_KEYS: 's1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc',
      }).redisUrl,
    ).toBe('rediss://cache.internal:6380');
  });

  it.each([
    ['a port that is not a number', { PORT: 'eighty' }, 'PORT'],
    ['a port out of range', { ENGINE_PORT: '70000' }, 'ENGINE_PORT'],
    ['a database URL of another kind', { DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    ['a Redis URL of another kind', { REDIS_URL: 'http://cache.internal:6379' }, 'REDIS_URL'],
    ['Redis (several nodes) without a shared secrets key', { REDIS_URL: 'redis://127.0.0.1:6379' }, 'SECRETS_KEYS'],
    ['a Redis URL that is not a URL', { REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    ['an engine URL without a key', { AI_API_URL: 'http://engine.internal:8081' }, 'AI_API_KEY'],
    ['a live key as the demo key', { DEMO_SITE_KEY: 'pk_live_AAAAAAAAAAAAAAAAAAAA' }, 'DEMO_SITE_KEY'],
    ['a malformed API key', { DEMO_API_KEY: 'secret' }, 'DEMO_API_KEY'],
    ['a weak session key', { SESSION_KEYS: 'k1:c2hvcnQ' }, 'SESSION_KEYS'],
    [
      'a sandbox key as the live demo key',
      { DEMO_LIVE_SITE_KEY: 'pk_test_AAAAAAAAAAAAAAAAAAAA' },
      'DEMO_LIVE_SITE_KEY',
    ],
    ['an allowed origin with a path', { DEMO_ALLOWED_ORIGINS: 'https://shop.example/store' }, 'DEMO_ALLOWED_ORIGINS'],
    ['an allowed origin that is not a URL', { DEMO_ALLOWED_ORIGINS: 'shop.example' }, 'DEMO_ALLOWED_ORIGINS'],
    ['a negative number of proxy hops', { TRUST_PROXY_HOPS: '-1' }, 'TRUST_PROXY_HOPS'],
    ['a short webhook secret', { ENGINE_WEBHOOK_SECRET: 'short' }, 'ENGINE_WEBHOOK_SECRET'],
    ['an inbox identifier too short to be a capability', { DEMO_INBOX_IDENTIFIER: 'abc' }, 'DEMO_INBOX_IDENTIFIER'],
  ])('stops with a clear message on %s', (_name, env, mentioned) => {
    expect(() => readDemoConfig(env)).toThrow(ConfigError);
    expect(() => readDemoConfig(env)).toThrow(mentioned);
  });
});
