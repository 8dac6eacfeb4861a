/**
 * The BFF's own SMTP listener (smtp-server) on INBOUND_SMTP_PORT, for an MX pointed at it: no
 * authentication, only `reply+<token>@MAIL_REPLY_DOMAIN` recipients, at most INBOUND_MAX_BYTES.
 * What it accepts goes through the same `InboundMail.take` as `POST /inbound/email`. Loops and
 * mails without words of their own are accepted and dropped (refusing a bounce makes another
 * bounce); a flood is told to come back later (451).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Logger } from '../../shared/server/index.ts';
import { INBOUND_MAX_BYTES } from './email-settings.ts';
import { replyTokenOf } from './email-tokens.ts';
import type { InboundMail } from './inbound-mail.ts';

export interface InboundListener {
  /** The port it listens on (the one given, or the one chosen for 0). */
  port: number;
  close(): Promise<void>;
}

/** An SMTP answer: `code` is the reply code the client is given. */
const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/** Reads a message, keeping at most `limit` bytes; `exceeded` when it was larger. */
function readMessage(stream: SMTPServerDataStream, limit: number): Promise<{ raw: Buffer; exceeded: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    stream.on('end', () => resolve({ raw: Buffer.concat(chunks), exceeded: stream.sizeExceeded || size > limit }));
    stream.on('error', reject);
  });
}

export async function startInboundListener({
  inbound,
  replyDomain,
  port,
  host,
  logger,
}: {
  inbound: InboundMail;
  replyDomain: string;
  port: number;
  host: string;
  logger: Logger;
}): Promise<InboundListener> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH'],
    // Without a certificate of ours, STARTTLS would offer smtp-server's own self-signed one: plain SMTP, as an MX's last hop is.
    hideSTARTTLS: true,
    size: INBOUND_MAX_BYTES,
    maxClients: 100,
    logger: false,
    banner: 'Parley replies',
    onRcptTo(address, _session, callback) {
      if (!replyTokenOf(address.address, replyDomain)) return callback(smtpError(550, 'No such mailbox here.'));
      callback();
    },
    onData(stream, session: SMTPServerSession, callback) {
      readMessage(stream, INBOUND_MAX_BYTES)
        .then(async ({ raw, exceeded }) => {
          if (exceeded) return callback(smtpError(552, 'The message is larger than this server takes.'));
          const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          const recipients = session.envelope.rcptTo.map((recipient) => recipient.address);
          const outcome = await inbound.take(raw, { mailFrom, recipients });
          if (outcome.refused === 'rate_limited') return callback(smtpError(451, 'Too many messages; try later.'));
          if (outcome.refused) logger.info({ reason: outcome.refused }, 'an inbound e-mail was dropped');
          callback();
        })
        .catch((error: unknown) => {
          logger.error({ err: error }, 'an inbound e-mail could not be taken');
          callback(smtpError(451, 'The message could not be taken now; try later.'));
        });
    },
  });
  server.on('error', (error) => logger.warn({ err: error }, 'the inbound SMTP listener had an error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.server.address() as AddressInfo;
  return {
    port: bound,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
