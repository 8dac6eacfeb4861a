import type { Sql } from '../../shared/server/index.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import type { EngineEventRecorder } from '../engine-link/engine-events.ts';
import type { Publisher } from '../realtime/publisher.ts';
import { createDeskCommit } from './desk-commit.ts';
import { createDeskConversationAccess } from './desk-conversation-access.ts';
import { createDeskConversationReading } from './desk-conversation-reading.ts';
import { createDeskEngineMoves } from './desk-engine-moves.ts';
import { createDeskMessageService } from './desk-message-service.ts';
import { createDeskStatusService } from './desk-status-service.ts';

export interface DeskConversationDeps {
  sql: Sql;
  engines: Pick<EngineAccounts, 'forInbox'>;
  recorder: EngineEventRecorder;
  conversations: ConversationService;
  now: () => Date;
  /** Where the changes people make (notes, assignments, snoozes, a reopening) are recorded (webhooks) and published (sockets). */
  publisher: Pick<Publisher, 'record' | 'publish'>;
  /** Where people reach the BFF (PUBLIC_URL): attachments' data_url is absolute with it, a path without. */
  publicUrl?: string | undefined;
}

/**
 * Conversations for the people of an account: list them by their status as people see it
 * (administrators see every inbox, agents the inboxes they answer), read every message (notes
 * included, each with who wrote it), answer (a person's answer hands the conversation to people
 * first when the AI has it), write private notes, assign, hand over and back, snooze, resolve and
 * reopen. A move that needs the engine is made there first, and refused with 503 and nothing
 * stored when it cannot be reached: the console sends it again (an answer with the same echo_id).
 */
export function createDeskConversationService(deps: DeskConversationDeps) {
  const { sql, engines, recorder, conversations, publisher, now, publicUrl = '' } = deps;
  const access = createDeskConversationAccess({ sql, now });
  const commit = createDeskCommit({ sql, publisher });
  const moves = createDeskEngineMoves({ sql, engines, recorder });
  const reading = createDeskConversationReading({ sql, now, publisher, access });
  const messages = createDeskMessageService({ sql, now, publicUrl, access, commit, moves });
  const status = createDeskStatusService({ sql, now, conversations, access, commit, moves });
  return {
    visibleInboxIds: access.visibleInboxIds,
    /** A conversation the caller may see (404 otherwise), as the store keeps it. */
    find: access.find,
    ...reading,
    ...messages,
    ...status,
  };
}

export type DeskConversationService = ReturnType<typeof createDeskConversationService>;
