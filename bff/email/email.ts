/**
 * Conversations continued by e-mail (issue 32), built from their parts: answers noted for a digest
 * in their own transaction, digests sent through SMTP_URL by a timer, and replies taken back by the
 * SMTP listener and `POST /inbound/email`. Each half is on only when configured.
 */
import { createTransport } from 'nodemailer';
import { ApiRoutes, type Logger, type RateLimiter, type Sql } from '../../shared/server/index.ts';
import type { Publisher } from '../realtime/publisher.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import type { WidgetSessions } from '../widget/sessions.ts';
import { sessionAuth, widgetRateLimit, type WidgetState } from '../widget/session-auth.ts';
import { WIDGET_REQUESTS_PER_MINUTE } from '../host/limiters.ts';
import { addContinuationRoutes } from './continuation-routes.ts';
import { addUnsubscribeRoutes } from './unsubscribe-routes.ts';
import { forgetExpiredUnsubscribeTokens } from './unsubscribe-tokens.ts';
import { addWidgetEmailRoutes } from './widget-email-routes.ts';
import { addTranscriptRoutes } from './transcript-routes.ts';
import { createTranscriptSender, type TranscriptSender } from './transcript-sender.ts';
import { countUnsentTranscripts } from './transcript-store.ts';
import type { Metrics } from '../host/metrics.ts';
import { digestRecording } from './digest-recording.ts';
import { createDigestSender, type CustomerConnected, type DigestSender } from './digest-sender.ts';
import { countDigests, forgetExpiredTokens } from './email-store.ts';
import { DEFAULT_ASK_AFTER_S, type EmailSettings } from './email-settings.ts';
import { createInboundMail, type InboundMail, type InboundMailDeps } from './inbound-mail.ts';
import { startInboundListener, type InboundListener } from './inbound-listener.ts';
import { addInboundEmailRoutes } from './inbound-routes.ts';

export interface EmailDeps {
  sql: Sql;
  logger: Logger;
  now: () => Date;
  /** Unset: no e-mail either way. */
  settings: EmailSettings | undefined;
  publicUrl: string | undefined;
  publisher: Publisher;
  conversations: Pick<ConversationService, 'send' | 'mine'>;
  /** Issues the widget session a continuation link is traded for, and checks the widget's. */
  sessions: WidgetSessions;
  /** The widget's per-customer request limit, for the widget's e-mail route. */
  widgetLimiter: RateLimiter;
  limiter: RateLimiter;
  metrics: Metrics;
  /** The widget uploads' checks and storage, for the files of e-mail replies. */
  attachments: InboundMailDeps['attachments'];
  /** The engines and their events' recorder: a reply to a resolved conversation reopens it for people. */
  engines: InboundMailDeps['engines'];
  recorder: InboundMailDeps['recorder'];
}

export interface Email {
  /** The inbound route and the continuation links' route, to mount with the BFF's others. */
  routes: ApiRoutes;
  /** The widget's e-mail address route, behind a widget session. */
  widgetRoutes: ApiRoutes<WidgetState>;
  /** Sends the digests and transcripts due now (the timer calls it; tests too); 0 without SMTP_URL. */
  sendDue(): Promise<number>;
  /**
   * Starts sending digests (a timer) and the SMTP listener (when INBOUND_SMTP_PORT is set), once the
   * sockets exist that tell whether a customer is there (`customerConnected`; without it only what
   * the customer read is left out).
   */
  start(options?: { customerConnected?: CustomerConnected | undefined }): Promise<void>;
  /** The listener's port once started (undefined without one). */
  listenerPort(): number | undefined;
  stop(): Promise<void>;
}

const HOUR_MS = 3_600_000;

export function createEmail(deps: EmailDeps): Email {
  const { sql, logger, now, settings, publisher } = deps;
  const smtpUrl = settings?.smtpUrl;
  // Answers are noted from the first one on; they are sent once `start` has what it needs.
  if (smtpUrl) publisher.subscribeDurable(digestRecording({ now, digestDelayS: settings.digestDelayS }));
  let digests: DigestSender | undefined;
  let transcripts: TranscriptSender | undefined;
  const replyDomain = settings?.replyDomain;
  const inbound = inboundMail(deps);
  const routes = new ApiRoutes();
  addInboundEmailRoutes(routes, inbound, settings?.inboundSecret);
  addContinuationRoutes(routes, { sql, sessions: deps.sessions, now });
  addUnsubscribeRoutes(routes, { sql, now });
  const widgetRoutes = widgetEmailRoutes(deps);
  if (smtpUrl) addEmailGauges(deps.metrics, sql);

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let listener: InboundListener | undefined;
  let tidiedAt = 0;

  const sendDue = async (): Promise<number> =>
    (digests ? await digests.sendDue() : 0) + (transcripts ? await transcripts.sendDue() : 0);

  async function pass(): Promise<void> {
    await sendDue();
    if (now().getTime() - tidiedAt >= HOUR_MS) {
      tidiedAt = now().getTime();
      await forgetExpiredTokens(sql, now());
      await forgetExpiredUnsubscribeTokens(sql, now());
    }
  }

  return {
    routes,
    widgetRoutes,
    sendDue,
    async start({ customerConnected } = {}) {
      if (smtpUrl && settings) {
        const transport = createTransport(smtpUrl);
        digests = createDigestSender({
          sql,
          logger,
          now,
          settings,
          transport,
          publicUrl: deps.publicUrl,
          customerConnected,
        });
        transcripts = createTranscriptSender({ sql, logger, now, settings, transport });
      }
      const pollMs = settings?.pollMs ?? 5_000;
      if (digests && pollMs > 0) {
        timer = setInterval(() => {
          running = running
            .then(pass)
            .catch((error: unknown) => logger.error({ err: error }, 'sending e-mail digests failed'));
        }, pollMs);
        timer.unref();
      }
      if (inbound && replyDomain && settings?.inboundSmtpPort !== undefined) {
        const host = settings.inboundSmtpHost ?? '127.0.0.1';
        listener = await startInboundListener({ inbound, replyDomain, port: settings.inboundSmtpPort, host, logger });
        logger.info({ port: listener.port, host }, 'taking e-mail replies by SMTP');
      }
    },
    listenerPort: () => listener?.port,
    async stop() {
      if (timer) clearInterval(timer);
      await running;
      await listener?.close();
    },
  };
}

/** Replies taken back, when MAIL_REPLY_DOMAIN names where they are sent. */
function inboundMail(deps: EmailDeps): InboundMail | undefined {
  const replyDomain = deps.settings?.replyDomain;
  if (!replyDomain) return undefined;
  const { sql, logger, now, conversations, publisher, limiter, attachments, engines, recorder } = deps;
  return createInboundMail({
    sql,
    logger,
    now,
    conversations,
    publisher,
    limiter,
    replyDomain,
    attachments,
    engines,
    recorder,
  });
}

/** The widget's routes (behind a widget session): the ask and the address, and the transcript. */
function widgetEmailRoutes(deps: EmailDeps): ApiRoutes<WidgetState> {
  const { sql, now, settings, conversations } = deps;
  const widgetRoutes = new ApiRoutes<WidgetState>({
    middleware: [sessionAuth(deps.sessions, sql), widgetRateLimit(deps.widgetLimiter, WIDGET_REQUESTS_PER_MINUTE, now)],
  });
  const sending = Boolean(settings?.smtpUrl);
  const askAfterS = settings?.askAfterS ?? DEFAULT_ASK_AFTER_S;
  addWidgetEmailRoutes(widgetRoutes, { sql, conversations, options: { sending, askAfterS, now } });
  addTranscriptRoutes(widgetRoutes, { sql, conversations, sending, now });
  return widgetRoutes;
}

/** Digests waiting and failing, for /metrics: a failing SMTP server shows here. */
function addEmailGauges(metrics: Metrics, sql: Sql): void {
  metrics.gauge(async () => {
    const { pending, failing } = await countDigests(sql);
    const unsentTranscripts = await countUnsentTranscripts(sql);
    return [
      {
        name: 'parley_email_digests_pending',
        help: 'E-mail digests waiting to be sent.',
        values: [{ value: pending }],
      },
      {
        name: 'parley_email_digests_failing',
        help: 'E-mail digests whose last send failed (retried with back-off).',
        values: [{ value: failing }],
      },
      {
        name: 'parley_email_transcripts_pending',
        help: 'Transcripts customers asked for, waiting to be sent (retried with back-off when SMTP fails).',
        values: [{ value: unsentTranscripts }],
      },
    ];
  });
}
