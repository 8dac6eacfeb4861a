import type { Namespace } from 'socket.io';
import type { CallEndReason, WidgetClientEvents, WidgetServerEvents } from '../../shared/index.ts';
import type { Logger, Sql } from '../../shared/server/index.ts';
import type { DeskNamespace } from '../helpdesk/desk-socket-access.ts';
import { accountRoom, inboxRoom } from '../helpdesk/desk-socket-access.ts';
import type { Publisher } from '../realtime/publisher.ts';
import type { Session } from '../widget/sessions.ts';
import type { CallEngine } from './call-engine.ts';
import type { Call, CallRegistry, EndedBy } from './call-registry.ts';

export type WidgetCallNamespace = Namespace<
  WidgetClientEvents,
  WidgetServerEvents,
  Record<string, never>,
  { session: Session }
>;

/** What the two sides' handlers share: the calls every node sees, both namespaces, and how a call ends. */
export interface CallContext {
  sql: Sql;
  now: () => Date;
  logger: Logger;
  publisher: Pick<Publisher, 'record' | 'publish'>;
  /** STUN/TURN URLs for both sides (`ICE_SERVERS`); none on one machine or LAN. */
  iceServers: string[];
  registry: CallRegistry;
  engine: CallEngine;
  widget: WidgetCallNamespace;
  desk: DeskNamespace;
  /** A person accepted a call: the call with the AI it was handed on from ends, on whichever node (ai-call-hand-on.ts). */
  personAnswered(personCallId: string): void;
  /** Ends a call once (a second end of the same call, on any node, does nothing). */
  end(callId: string, endedBy: EndedBy, reason?: CallEndReason): Promise<void>;
}

/** The consoles a call rings on: the account's administrators and the inbox's people. */
export const ringRooms = (call: Pick<Call, 'accountId' | 'conversation'>): string[] => [
  accountRoom(call.accountId),
  inboxRoom(call.conversation.inboxId),
];
