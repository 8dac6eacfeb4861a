import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../shared/server/index.ts';
import { readBffConfig } from '../host/config.ts';

const BASE = {
  AI_API_URL: 'http://engine.internal:8081',
  AI_API_KEY: `service_live_${'a'.repeat(32)}`,
  DATA_DIR: 'memory://',
};

function configError(env: Record<string, string>): string {
  try {
    readBffConfig({ ...BASE, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was taken');
}

describe('the e-mail variables', () => {
  it('leaves e-mail off when neither SMTP_URL nor MAIL_REPLY_DOMAIN is set', () => {
    expect(readBffConfig(BASE).email).toBeUndefined();
  });

  it('reads sending and taking replies, with the digest delay at 120 s and the ask after 60 s by default', () => {
    const config = readBffConfig({
      ...BASE,
      HOST: '0.0.0.0',
      SMTP_URL: 'smtps://user:secret@smtp.provider.example:465',
      MAIL_FROM: 'Shop <support@shop.example>',
      MAIL_REPLY_DOMAIN: 'reply.shop.example',
      INBOUND_SMTP_PORT: '2525',
      INBOUND_EMAIL_SECRET: 'a-long-enough-secret',
    });
    expect(config.email).toEqual({
      smtpUrl: 'smtps://user:secret@smtp.provider.example:465',
      from: 'Shop <support@shop.example>',
      replyDomain: 'reply.shop.example',
      digestDelayS: 120,
      askAfterS: 60,
      inboundSmtpPort: 2525,
      inboundSmtpHost: '0.0.0.0',
      inboundSecret: 'a-long-enough-secret',
    });
  });

  it('names every bad e-mail variable at once', () => {
    const message = configError({
      SMTP_URL: 'http://smtp.example',
      MAIL_REPLY_DOMAIN: 'not a domain',
      EMAIL_DIGEST_DELAY_S: '-1',
      INBOUND_EMAIL_SECRET: 'short',
    });
    for (const name of ['SMTP_URL', 'MAIL_REPLY_DOMAIN', 'EMAIL_DIGEST_DELAY_S', 'INBOUND_EMAIL_SECRET'])
      expect(message).toContain(name);
  });

  it('wants MAIL_FROM with SMTP_URL, and MAIL_REPLY_DOMAIN with a way in', () => {
    expect(configError({ SMTP_URL: 'smtp://smtp.example:587' })).toContain('MAIL_FROM');
    expect(configError({ INBOUND_SMTP_PORT: '2525' })).toContain('MAIL_REPLY_DOMAIN');
    expect(configError({ INBOUND_EMAIL_SECRET: 'a-long-enough-secret' })).toContain('MAIL_REPLY_DOMAIN');
  });
});
