import { join } from 'node:path';
import { startSmtpSink } from '../bff/email/smtp-sink.ts';
import { DEFAULT_DIGEST_DELAY_S, type EmailSettings } from '../bff/email/email-settings.ts';
import type { DemoConfig } from './config.ts';

/** Where the demo's digests go: the SMTP server SMTP_URL names, or the demo's own catcher. */
export interface DemoMail {
  settings: EmailSettings;
  /** Where the catcher keeps each mail as an `.eml` file (none in memory, or with SMTP_URL set). */
  folder: string | undefined;
  close(): Promise<void>;
}

/**
 * The demo's e-mail. With SMTP_URL set, the BFF sends there as configured. Without, a small SMTP
 * server of the demo's own takes every digest on loopback and keeps it in DATA_DIR/mail as an
 * `.eml` file that any mail program opens (`npm start` prints the folder): a newcomer sees a
 * customer who left get the answer by e-mail, and nothing leaves the machine.
 */
export async function startDemoMail(config: DemoConfig): Promise<DemoMail> {
  if (config.email?.smtpUrl) return { settings: config.email, folder: undefined, close: async () => {} };
  const folder = config.dataDir === 'memory://' ? undefined : join(config.dataDir, 'mail');
  const sink = await startSmtpSink({ ...(folder ? { folder } : {}) });
  const settings: EmailSettings = {
    smtpUrl: sink.url,
    from: config.email?.from || 'Demo store <shop@demo.localhost>',
    replyDomain: config.email?.replyDomain,
    digestDelayS: config.email?.digestDelayS ?? DEFAULT_DIGEST_DELAY_S,
    inboundSmtpPort: config.email?.inboundSmtpPort,
    inboundSmtpHost: config.email?.inboundSmtpHost,
    inboundSecret: config.email?.inboundSecret,
  };
  return { settings, folder, close: () => sink.close() };
}
