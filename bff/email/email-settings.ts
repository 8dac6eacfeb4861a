/** How the BFF sends and takes e-mail (README "Conversations by e-mail"); read from the variables in bff/host/config.ts. */
export interface EmailSettings {
  /** Where digests are sent (`smtp://user:pass@host:587`, `smtps://…`); unset: no e-mail is sent. */
  smtpUrl: string | undefined;
  /** The digests' From (MAIL_FROM), e.g. `Parley <support@shop.example>`. */
  from: string;
  /** The domain of the `reply+<token>@…` addresses (MAIL_REPLY_DOMAIN); unset: digests carry no Reply-To and no reply is taken. */
  replyDomain: string | undefined;
  /** How long answers are gathered into one e-mail (EMAIL_DIGEST_DELAY_S). */
  digestDelayS: number;
  /** The port of the BFF's own SMTP listener for replies (INBOUND_SMTP_PORT); unset: no listener. */
  inboundSmtpPort: number | undefined;
  /** Where the listener binds (the BFF's HOST; 127.0.0.1 by default). */
  inboundSmtpHost?: string | undefined;
  /** The secret `POST /inbound/email` checks signatures with (INBOUND_EMAIL_SECRET); unset: the route answers 404. */
  inboundSecret: string | undefined;
  /** How long a customer waits for a person after a handover before the widget offers the reply by e-mail (EMAIL_ASK_AFTER_S). */
  askAfterS?: number | undefined;
  /** How often due digests are looked for (5 s; 0: only when a test calls `sendDue`). */
  pollMs?: number | undefined;
}

/** The default time answers are gathered for one e-mail. */
export const DEFAULT_DIGEST_DELAY_S = 120;

/** The default wait for a person after a handover before the widget asks for an address. */
export const DEFAULT_ASK_AFTER_S = 60;

/** A conversation's transcript is e-mailed at most once in this time (the widget's "E-mail me this conversation"). */
export const TRANSCRIPT_INTERVAL_MS = 10 * 60_000;

/** The largest e-mail taken in (by the listener and the route): words, a quoted history and a few small files. */
export const INBOUND_MAX_BYTES = 10 * 1024 * 1024;

/** How long a reply address and a continuation link work. */
export const REPLY_TOKEN_TTL_MS = 30 * 24 * 3_600_000;
export const CONTINUATION_TTL_MS = 7 * 24 * 3_600_000;
