/**
 * An SMTP server that keeps what it is sent, in this process: what the demo gives SMTP_URL when
 * none is set (so a newcomer sees the digests), and what the tests read Parley's e-mails from.
 * Plain SMTP on loopback, no authentication.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A mail the sink took: its envelope and its parsed content. */
export interface CaughtMail {
  envelopeFrom: string;
  envelopeTo: string[];
  mail: ParsedMail;
  /** Where the raw message was written, when the sink keeps files. */
  file?: string | undefined;
}

export interface SmtpSink {
  /** The SMTP_URL that sends here. */
  url: string;
  port: number;
  /** What it took, oldest first. */
  mails: CaughtMail[];
  /** While true, every recipient is refused with 451 (a mail server in trouble, for tests of retries). */
  failing: boolean;
  close(): Promise<void>;
}

/** Reads a whole message from the SMTP session's stream. */
async function readAll(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Starts the sink on `host:port` (0: a free port). With `folder`, each message is also written
 * there as an `.eml` file, which any mail program opens.
 */
export async function startSmtpSink({
  port = 0,
  host = '127.0.0.1',
  folder,
  onMail,
}: { port?: number; host?: string; folder?: string; onMail?: (caught: CaughtMail) => void } = {}): Promise<SmtpSink> {
  const mails: CaughtMail[] = [];
  const sink = { failing: false };
  if (folder) mkdirSync(folder, { recursive: true, mode: 0o700 });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!sink.failing) return callback();
      callback(Object.assign(new Error('Try again later.'), { responseCode: 451 }));
    },
    onData(stream, session, callback) {
      readAll(stream)
        .then(async (raw) => {
          const file = folder ? join(folder, `${Date.now()}-${mails.length + 1}.eml`) : undefined;
          if (file) writeFileSync(file, raw, { mode: 0o600 });
          const caught = {
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            envelopeTo: session.envelope.rcptTo.map((recipient) => recipient.address),
            mail: await simpleParser(raw),
            file,
          };
          mails.push(caught);
          onMail?.(caught);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.server.address() as AddressInfo).port;
  return Object.assign(sink, {
    url: `smtp://${host}:${bound}`,
    port: bound,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
