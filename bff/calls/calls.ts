import type { Server } from 'socket.io';
import { DESK_NAMESPACE, WIDGET_NAMESPACE } from '../../shared/index.ts';
import type { Logger, Sql } from '../../shared/server/index.ts';
import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import type { DeskConversationService } from '../helpdesk/desk-conversation-service.ts';
import type { DeskNamespace } from '../helpdesk/desk-socket-access.ts';
import type { Publisher } from '../realtime/publisher.ts';
import type { Session } from '../widget/sessions.ts';
import type { WidgetCallNamespace } from './call-context.ts';
import { createCallEngine } from './call-engine.ts';
import { createCallEnding } from './call-ending.ts';
import { createCallRegistry } from './call-registry.ts';
import { serveDeskCalls } from './desk-calls.ts';
import { serveWidgetCalls } from './widget-calls.ts';

export interface CallsDeps {
  sql: Sql;
  now: () => Date;
  logger: Logger;
  publisher: Pick<Publisher, 'record' | 'publish'>;
  engines: Pick<EngineAccounts, 'forInbox'>;
  desk: DeskConversationService;
  consumeCommand: (session: Session) => Promise<void>;
  /** STUN/TURN URLs (`ICE_SERVERS`); none on one machine or LAN. */
  iceServers: string[];
}

/**
 * Person calls (issue 30) on the sockets that are already there: the customer's `/widget` socket
 * and the person's `/desk` socket carry the call's commands, and the BFF relays WebRTC's
 * negotiation between exactly those two sockets; the audio itself flows browser to browser.
 * Attached after the namespaces' own handlers, whose authentication has set each socket's data.
 */
export function addCalls(io: Server, deps: CallsDeps): void {
  const { sql, now, logger, publisher, iceServers } = deps;
  const widget = io.of(WIDGET_NAMESPACE) as unknown as WidgetCallNamespace;
  const desk = io.of(DESK_NAMESPACE) as unknown as DeskNamespace;
  const registry = createCallRegistry();
  const engine = createCallEngine({ engines: deps.engines, logger });
  const parts = { sql, now, logger, publisher, iceServers, registry, engine, widget, desk };
  const context = { ...parts, end: createCallEnding(parts) };
  widget.on('connection', (socket) => serveWidgetCalls(socket, context, deps.consumeCommand));
  desk.on('connection', (socket) => serveDeskCalls(socket, context, deps.desk));
}
