import { ParleyError } from '../../shared/index.ts';
import type { RateDecision, RateLimiter, SecretBox, Sql } from '../../shared/server/index.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import type { Publisher } from '../realtime/publisher.ts';
import { accountSuspendedError, inboxSuspended } from '../helpdesk/store/accounts.ts';
import type { AttachmentService } from '../attachments/attachment-service.ts';
import { findInboxByIdentifier, type ClientInbox } from '../store/inboxes.ts';
import type { ClientApiLimit } from './limits.ts';
import { createContactService } from './contact-service.ts';
import { createClientConversationService } from './client-conversation-service.ts';
import { createClientMessageService } from './client-message-service.ts';
import { createMessageAnswers } from './message-answers.ts';
import { createSurveyService } from './survey-service.ts';

export interface ClientServiceDeps {
  sql: Sql;
  /** Opens the inboxes' identity validation (HMAC) keys and the contacts' capabilities, which are stored sealed. */
  secrets: SecretBox;
  conversations: ConversationService;
  attachments: AttachmentService;
  /** Where people reach the BFF (PUBLIC_URL): attachments' data_url is absolute with it, a path without. */
  publicUrl?: string | undefined;
  publisher: Publisher;
  floodLimiter: RateLimiter;
  now: () => Date;
}

/**
 * The helpdesk Client API over the BFF's one conversation service: a contact of an inbox is a
 * customer (`ctc_<id>`), so a custom client and the widget see conversations the same way. The
 * routes load the inbox and the contact once per request (`inboxOf`, `contactOf`); every lookup
 * after is scoped to them.
 */
export function createClientService({
  sql,
  secrets,
  conversations,
  attachments,
  publisher,
  floodLimiter,
  now,
  publicUrl = '',
}: ClientServiceDeps) {
  return {
    /**
     * Counts one request against a limit of the Client API (`limits.ts`) for `key` (an address, an
     * inbox, a contact) in the current minute; the routes turn a refusal into 429 with Retry-After.
     */
    async count(
      limit: ClientApiLimit,
      key: string | number,
      perMinute: number,
    ): Promise<{ decision: RateDecision; at: Date }> {
      const at = now();
      return { decision: await floodLimiter.consume(`client-api:${limit}:${key}`, perMinute, at), at };
    },

    /** The inbox of an identifier; a suspended account's inboxes answer 403 `account_suspended`. */
    async inboxOf(identifier: string): Promise<ClientInbox> {
      const inbox = await findInboxByIdentifier(sql, identifier);
      if (!inbox) throw new ParleyError('not_found', `No inbox ${identifier}.`);
      if (await inboxSuspended(sql, inbox.id)) throw accountSuspendedError();
      return { ...inbox, hmacToken: inbox.hmacToken === null ? null : secrets.open(inbox.hmacToken) };
    },

    ...createContactService({ sql, secrets, now }),
    ...createClientConversationService({ sql, conversations, publicUrl, now }),
    ...createClientMessageService({ sql, conversations, attachments, publicUrl }),
    ...createMessageAnswers({ sql, conversations, publisher, publicUrl }),
    ...createSurveyService({ sql, conversations }),
  };
}

export type ClientService = ReturnType<typeof createClientService>;
