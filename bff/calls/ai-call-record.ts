/** A call with the AI as this node keeps it, and what its parts are built from (issue 30; ai-calls.ts). */
import type { Logger, Sql } from '../../shared/server/index.ts';
import type { EngineClient } from '../engine-link/engine-client.ts';
import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import type { Publisher } from '../realtime/publisher.ts';
import type { ConversationRecord } from '../store/conversations.ts';
import type { Session, WidgetSessions } from '../widget/sessions.ts';
import type { AiCallClaims } from './ai-call-claims.ts';
import type { CallContext } from './call-context.ts';
import type { EndedBy } from './call-registry.ts';

/** A call with the AI on this node. */
export interface AiCall {
  id: string;
  conversation: ConversationRecord;
  /** Whose call it is: only this customer's session may join its stream. */
  customer: Pick<Session, 'inboxId' | 'customerRef' | 'name'>;
  /** The widget socket that called: a handover rings people for it, as a person call of that socket. */
  customerSocket: string;
  engine: EngineClient;
  engineCallId: string;
  /** The voice session token that began the call: it opens the engine's stream, once. */
  token: string;
  startedAt: number;
  /** Ends the call when the widget never joins it. */
  joinBy: ReturnType<typeof setTimeout> | undefined;
  /** The person call a handover rang for: a person accepting it ends this call (ai-call-hand-on.ts). */
  handoverCallId: string | undefined;
  /** Closes the relay's two sockets, once it is joined. */
  hangUp: ((endedBy: EndedBy) => void) | undefined;
}

export interface AiCallsDeps {
  sql: Sql;
  now: () => Date;
  logger: Logger;
  publisher: Pick<Publisher, 'record' | 'publish'>;
  engines: Pick<EngineAccounts, 'forInbox'>;
  sessions: Pick<WidgetSessions, 'verify'>;
  /** STUN/TURN URLs: a person who takes over the call talks browser to browser. */
  iceServers: string[];
  /** The person calls: a handover during a call rings people through them. */
  people: Pick<CallContext, 'registry' | 'desk'>;
  /** The calls' rows in the store: one call per conversation across nodes (ai-call-claims.ts). */
  claims: AiCallClaims;
  /** How long a claim lasts: this node renews its calls' every third of it. */
  leaseMs: number;
}

/** What the stream's relay is built from: the calls of this node, and how one ends. */
export interface RelayDeps extends AiCallsDeps {
  calls: Map<string, AiCall>;
  end(call: AiCall, endedBy: EndedBy): void;
}
