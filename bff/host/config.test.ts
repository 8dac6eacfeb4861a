import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../shared/server/index.ts';
import { readBffConfig, readBffStoreConfig } from './config.ts';

const ENGINE = { AI_API_URL: 'http://engine.internal:8081', AI_API_KEY: `service_live_${'a'.repeat(32)}` };
const SESSION_KEY = `k1:${Buffer.alloc(32, 7).toString('base64url')}`;

describe("the BFF's own configuration (npm run bff)", () => {
  it('reads a good set of variables', () => {
    const config = readBffConfig({
      ...ENGINE,
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: 'memory://',
      DATABASE_URL: 'postgresql://parley@db.internal/parley',
      REDIS_URL: 'rediss://cache.internal:6380',
      SECRETS_KEYS: 's1:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc',
      SESSION_KEYS: `${SESSION_KEY}, k0:${Buffer.alloc(40, 1).toString('base64url')}`,
      TRUST_PROXY_HOPS: '1',
      PUBLIC_URL: 'https://Chat.Example.com:443',
      ENGINE_WEBHOOK_SECRET: 'whsec_0123456789abcdef',
      FEED_POLL_MS: '5000',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      aiApiUrl: 'http://engine.internal:8081',
      aiApiKeys: [ENGINE.AI_API_KEY],
      dataDir: 'memory://',
      databaseUrl: 'postgresql://parley@db.internal/parley',
      redisUrl: 'rediss://cache.internal:6380',
      trustProxyHops: 1,
      publicUrl: 'https://chat.example.com',
      engineWebhookSecrets: ['whsec_0123456789abcdef'],
      feedPollMs: 5000,
      logLevel: 'warn',
    });
    expect(config.sessionKeys?.map((key) => key.kid)).toEqual(['k1', 'k0']);
  });

  it('needs nothing but the engine: the store is embedded, keys are made on first start, limits stay in the process', () => {
    const config = readBffConfig(ENGINE);
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', trustProxyHops: 0, feedPollMs: 2000 });
    expect(config).toMatchObject({ databaseUrl: undefined, redisUrl: undefined, sessionKeys: undefined });
    expect(config.dataDir).toMatch(/\.data$/);
  });

  it('takes one engine key per environment, and a webhook secret for each, separated by commas', () => {
    const sandbox = `service_test_${'c'.repeat(32)}`;
    const config = readBffConfig({
      ...ENGINE,
      AI_API_KEY: ` ${sandbox} , ${ENGINE.AI_API_KEY} `,
      ENGINE_WEBHOOK_SECRET: 'whsec_0123456789abcdef,whsec_1123456789abcdef',
    });
    expect(config.aiApiKeys).toEqual([sandbox, ENGINE.AI_API_KEY]);
    expect(config.engineWebhookSecrets).toEqual(['whsec_0123456789abcdef', 'whsec_1123456789abcdef']);
  });

  it("reads the engine operator token and where the engine posts new accounts' events; refuses a token that can be guessed", () => {
    const token = 'o'.repeat(40);
    expect(
      readBffConfig({
        ...ENGINE,
        AI_OPERATOR_TOKEN: token,
        ENGINE_WEBHOOK_URL: 'https://chat.example.com/v1/engine-webhooks',
      }),
    ).toMatchObject({
      aiOperatorToken: token,
      engineWebhookUrl: 'https://chat.example.com/v1/engine-webhooks',
    });
    expect(readBffConfig(ENGINE)).toMatchObject({ aiOperatorToken: undefined, engineWebhookUrl: undefined });
    expect(() => readBffConfig({ ...ENGINE, AI_OPERATOR_TOKEN: 'short' })).toThrow(
      /AI_OPERATOR_TOKEN: must be at least 32 characters/,
    );
    expect(() => readBffConfig({ ...ENGINE, AI_OPERATOR_TOKEN: `${'o'.repeat(40)} x` })).toThrow(/AI_OPERATOR_TOKEN/);
    expect(() => readBffConfig({ ...ENGINE, ENGINE_WEBHOOK_URL: 'ftp://x' })).toThrow(/ENGINE_WEBHOOK_URL/);
  });

  it('takes private exceptions as origins or origins with a path, as the engine does, and refuses one with a query', () => {
    const config = readBffConfig({
      ...ENGINE,
      WEBHOOK_ALLOWED_PRIVATE_ORIGINS: 'http://10.0.0.2:8080/hooks/, https://bot.internal',
    });
    expect(config.webhookAllowedPrivateOrigins).toEqual(['http://10.0.0.2:8080/hooks', 'https://bot.internal']);
    expect(() => readBffConfig({ ...ENGINE, WEBHOOK_ALLOWED_PRIVATE_ORIGINS: 'http://10.0.0.2/hooks?x=1' })).toThrow(
      /WEBHOOK_ALLOWED_PRIVATE_ORIGINS/,
    );
  });

  it('treats empty variables as unset', () => {
    expect(
      readBffConfig({ ...ENGINE, DATABASE_URL: '', REDIS_URL: '', SESSION_KEYS: '', ENGINE_WEBHOOK_SECRET: '' }),
    ).toMatchObject({
      databaseUrl: undefined,
      redisUrl: undefined,
      sessionKeys: undefined,
      engineWebhookSecrets: [],
    });
  });

  it.each([
    ['no engine at all', {}, 'AI_API_URL'],
    ['an engine URL without its key', { AI_API_URL: ENGINE.AI_API_URL }, 'AI_API_KEY'],
    ['a key without the engine URL', { AI_API_KEY: ENGINE.AI_API_KEY }, 'AI_API_URL'],
    ['an engine URL that is not http(s)', { ...ENGINE, AI_API_URL: 'ftp://engine.internal' }, 'AI_API_URL'],
    ['a key with the wrong prefix', { ...ENGINE, AI_API_KEY: `sk_live_${'a'.repeat(32)}` }, 'AI_API_KEY'],
    ['a site key as the engine key', { ...ENGINE, AI_API_KEY: `pk_test_${'a'.repeat(32)}` }, 'AI_API_KEY'],
    ['a port that is not a number', { ...ENGINE, PORT: 'eighty' }, 'PORT'],
    ['a port out of range', { ...ENGINE, PORT: '70000' }, 'PORT'],
    ['a database URL of another kind', { ...ENGINE, DATABASE_URL: 'mysql://db.internal/parley' }, 'DATABASE_URL'],
    ['a Redis URL of another kind', { ...ENGINE, REDIS_URL: 'http://cache.internal:6379' }, 'REDIS_URL'],
    ['a Redis address that is not a URL', { ...ENGINE, REDIS_URL: 'cache.internal:6379' }, 'REDIS_URL'],
    ['a session key shorter than 32 bytes', { ...ENGINE, SESSION_KEYS: 'k1:c2hvcnQ' }, 'SESSION_KEYS'],
    [
      'a session key without its kid',
      { ...ENGINE, SESSION_KEYS: Buffer.alloc(32, 7).toString('base64url') },
      'SESSION_KEYS',
    ],
    ['a negative number of proxy hops', { ...ENGINE, TRUST_PROXY_HOPS: '-1' }, 'TRUST_PROXY_HOPS'],
    ['a short webhook secret', { ...ENGINE, ENGINE_WEBHOOK_SECRET: 'short' }, 'ENGINE_WEBHOOK_SECRET'],
    [
      'two keys of one environment',
      { ...ENGINE, AI_API_KEY: `${ENGINE.AI_API_KEY},service_live_${'b'.repeat(32)}` },
      'AI_API_KEY',
    ],
    [
      'a list with a bad key',
      { ...ENGINE, AI_API_KEY: `${ENGINE.AI_API_KEY},pk_test_${'b'.repeat(32)}` },
      'AI_API_KEY',
    ],
    [
      'three webhook secrets',
      { ...ENGINE, ENGINE_WEBHOOK_SECRET: 'whsec_0123456789abcdef,whsec_1123456789abcdef,whsec_2123456789abcdef' },
      'ENGINE_WEBHOOK_SECRET',
    ],
    ['a feed poll under 100 ms', { ...ENGINE, FEED_POLL_MS: '10' }, 'FEED_POLL_MS'],
    ['an unknown log level', { ...ENGINE, LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    ['a public URL with a path', { ...ENGINE, PUBLIC_URL: 'https://chat.example.com/parley' }, 'PUBLIC_URL'],
    ['a metrics token shorter than 16 characters', { ...ENGINE, METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
    ['a metrics token with a space', { ...ENGINE, METRICS_TOKEN: 'a metrics token with spaces' }, 'METRICS_TOKEN'],
  ])('refuses %s with a message that names the variable', (_name, env, variable) => {
    expect(() => readBffConfig(env)).toThrow(ConfigError);
    expect(() => readBffConfig(env)).toThrow(new RegExp(`^  ${variable}: `, 'm'));
  });

  it('names every bad variable at once', () => {
    let message = '';
    try {
      readBffConfig({ ...ENGINE, PORT: '-1', REDIS_URL: 'localhost', SESSION_KEYS: 'k1:c2hvcnQ' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^The configuration is not valid:\n/);
    expect(message.match(/^ {2}(\w+):/gm)).toEqual(['  PORT:', '  REDIS_URL:', '  SESSION_KEYS:']);
  });
});

describe("the BFF's store settings (npm run bff:inbox)", () => {
  it('need no engine', () => {
    expect(readBffStoreConfig({ DATA_DIR: 'memory://' })).toEqual({ dataDir: 'memory://', databaseUrl: undefined });
  });

  it('refuse a database URL of another kind, naming it', () => {
    expect(() => readBffStoreConfig({ DATABASE_URL: 'mysql://db.internal/parley' })).toThrow(/^ {2}DATABASE_URL: /m);
  });
});
