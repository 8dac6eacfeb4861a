import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { afterAll, describe, expect, it } from 'vitest';
import { startSmtpSink } from './smtp-sink.ts';

describe('the SMTP sink that catches mail in this process', () => {
  const folder = mkdtempSync(join(tmpdir(), 'parley-mail-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('takes a mail over real SMTP, parses it and writes it to the folder as an .eml file', async () => {
    const sink = await startSmtpSink({ folder });
    try {
      await createTransport(sink.url).sendMail({
        from: 'shop@shop.test',
        to: 'ann@customer.test',
        subject: 'Hello',
        text: 'Words',
      });
      expect(sink.mails).toHaveLength(1);
      const [caught] = sink.mails;
      expect(caught!.envelopeTo).toEqual(['ann@customer.test']);
      expect(caught!.mail.subject).toBe('Hello');
      expect(caught!.file && existsSync(caught!.file)).toBe(true);
      expect(readFileSync(caught!.file!, 'utf8')).toContain('Subject: Hello');
    } finally {
      await sink.close();
    }
  });
});
