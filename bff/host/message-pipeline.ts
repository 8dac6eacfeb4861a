import {
  createSender,
  createWebhookWorker,
  DEFAULT_MEDIA_LIMIT,
  type Logger,
  type RateLimiter,
  type SecretBox,
  type Sql,
} from '../../shared/server/index.ts';
import { createConversationService } from '../widget/conversation-service.ts';
import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import { createEngineEventRecorder } from '../engine-link/engine-events.ts';
import { createCustomerErasure } from '../engine-link/customer-erasure.ts';
import { createFeedTail } from '../engine-link/feed-tail.ts';
import { createRelay } from '../engine-link/relay.ts';
import { deskWebhooks } from '../helpdesk/desk-webhooks.ts';
import { Publisher } from '../realtime/publisher.ts';
import { createAttachmentService } from '../attachments/attachment-service.ts';
import { createAttachmentDisposal } from '../attachments/disposal.ts';
import { MemoryAttachmentStorage } from '../attachments/storage.ts';
import type { BffDeps } from './deps.ts';
import type { Metrics } from './metrics.ts';

export interface MessagePipelineDeps {
  sql: Sql;
  logger: Logger;
  now: () => Date;
  secrets: SecretBox;
  engines: EngineAccounts;
  metrics: Metrics;
  floodLimiter: RateLimiter;
  /** The private origins the helpdesk's webhooks may reach. */
  webhookPolicy: { allowedPrivateOrigins: readonly string[] };
  /** Whether the engine signs webhooks to this BFF (else its events come from the feed alone). */
  engineWebhooks: boolean;
  settings: Pick<
    BffDeps,
    | 'deskWebhooks'
    | 'publicUrl'
    | 'attachments'
    | 'feedPollMs'
    | 'webhookGraceMs'
    | 'relayRetryDelaysMs'
    | 'aiTypingAfterMs'
    | 'messageLimits'
  >;
}

/**
 * What a message passes through, built in dependency order so that each part gets what it needs
 * and nothing is set afterwards: the publisher and its subscribers (desk webhooks, the message
 * counter), erasure, the recorder of the engine's events, the feed, the relay to the engine, the
 * conversations and the attachments.
 */
export function createMessagePipeline({
  sql,
  logger,
  now,
  secrets,
  engines,
  metrics,
  floodLimiter,
  webhookPolicy,
  engineWebhooks,
  settings,
}: MessagePipelineDeps) {
  const publisher = new Publisher(logger);
  const webhooks = createWebhookWorker({
    sql,
    logger,
    now,
    send: settings.deskWebhooks?.send ?? createSender(webhookPolicy, { prefix: 'X-Desk' }),
    secrets,
  });
  const deskHooks = deskWebhooks({ sql, now, wake: () => webhooks.nudge(), publicUrl: settings.publicUrl });
  publisher.subscribeDurable(deskHooks.record);
  publisher.subscribe(deskHooks.nudge);
  publisher.subscribe(({ changes }) => {
    for (const change of changes) {
      if (change.type === 'message.created' && change.message.author !== 'system')
        metrics.messages.inc({ direction: change.message.author === 'customer' ? 'in' : 'out' });
    }
  });
  // A forgotten customer's files are deleted by the disposal, which needs only the store and the storage.
  const attachmentStore = settings.attachments ?? {
    storage: new MemoryAttachmentStorage(),
    maxBytes: DEFAULT_MEDIA_LIMIT,
  };
  const disposal = createAttachmentDisposal({ sql, storage: attachmentStore.storage, logger, now });
  const erasure = createCustomerErasure({ sql, logger, now, eraseAttachments: disposal.erase });
  const recorder = createEngineEventRecorder({ sql, publisher, now, erasure });
  const feed = createFeedTail({
    sql,
    engines,
    recorder,
    logger,
    pollMs: settings.feedPollMs ?? 2_000,
    webhooks: engineWebhooks,
    ...(settings.webhookGraceMs ? { webhookGraceMs: settings.webhookGraceMs } : {}),
  });
  const relay = createRelay({
    sql,
    engines,
    recorder,
    publisher,
    logger,
    now,
    onAnswer: (events) => feed.expectWebhooks(events),
    onEngineBack: () => feed.wake(),
    attachmentStorage: attachmentStore.storage,
    ...(settings.relayRetryDelaysMs ? { retryDelaysMs: settings.relayRetryDelaysMs } : {}),
    ...(settings.aiTypingAfterMs !== undefined ? { typingAfterMs: settings.aiTypingAfterMs } : {}),
  });
  const conversations = createConversationService({
    sql,
    engines,
    relay,
    publisher,
    now,
    messageLimiter: floodLimiter,
    messageLimits: settings.messageLimits,
  });
  const attachments = createAttachmentService({
    sql,
    ...attachmentStore,
    conversations,
    limiter: floodLimiter,
    logger,
    now,
    disposal,
  });
  return { publisher, webhooks, deskHooks, erasure, recorder, feed, relay, conversations, attachments };
}

export type MessagePipeline = ReturnType<typeof createMessagePipeline>;
