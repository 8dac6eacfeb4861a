import { randomUUID } from 'node:crypto';
import type { Server } from 'socket.io';
import { DESK_NAMESPACE, WIDGET_NAMESPACE } from '../../shared/index.ts';
import type { Logger, Sql } from '../../shared/server/index.ts';
import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import type { DeskConversationService } from '../helpdesk/desk-conversation-service.ts';
import type { DeskNamespace } from '../helpdesk/desk-socket-access.ts';
import type { Publisher } from '../realtime/publisher.ts';
import type { Session, WidgetSessions } from '../widget/sessions.ts';
import { createAiCallClaims } from './ai-call-claims.ts';
import { createAiCallHandOn, type SharedNodes } from './ai-call-hand-on.ts';
import { createAiCalls } from './ai-calls.ts';
import type { WidgetCallNamespace } from './call-context.ts';
import { createCallEngine } from './call-engine.ts';
import { createCallEnding } from './call-ending.ts';
import { createCallRegistry } from './call-registry.ts';
import { startCallSweep, type CallLimits } from './call-sweep.ts';
import { serveDeskCalls } from './desk-calls.ts';
import { serveWidgetCalls } from './widget-calls.ts';

/** A call lasts an hour at most (CALL_MAX_S); a stopped node's calls end within 15 to 20 s. */
export const CALL_LIMITS: CallLimits = { maxS: 3600, leaseMs: 15_000 };

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
  /** Checks the session token a call with the AI is joined with (bff/calls/ai-call-relay.ts). */
  sessions: Pick<WidgetSessions, 'verify'>;
  /** Set when nodes share the Socket.IO adapter (Redis): a person's acceptance reaches every node. */
  shared?: SharedNodes | undefined;
  /** CALL_LIMITS by default. */
  limits?: { [K in keyof CallLimits]?: CallLimits[K] | undefined } | undefined;
}

/**
 * Person calls (issue 30) on the sockets that are already there: the customer's `/widget` socket
 * and the person's `/desk` socket carry the call's commands, and the BFF relays WebRTC's
 * negotiation between exactly those two sockets, on whichever nodes they are (the call is in the
 * store; the adapter carries each message to the other side's socket id); the audio itself flows
 * browser to browser. Attached after the namespaces' own handlers, whose authentication has set
 * each socket's data. `close` stops this node's round of the calls once its sockets are closed.
 */
export function addCalls(io: Server, deps: CallsDeps): { close(): Promise<void> } {
  const { sql, now, logger, publisher, iceServers } = deps;
  const limits: CallLimits = {
    maxS: deps.limits?.maxS ?? CALL_LIMITS.maxS,
    leaseMs: deps.limits?.leaseMs ?? CALL_LIMITS.leaseMs,
  };
  const widget = io.of(WIDGET_NAMESPACE) as unknown as WidgetCallNamespace;
  const desk = io.of(DESK_NAMESPACE) as unknown as DeskNamespace;
  const node = `node_${randomUUID()}`;
  const registry = createCallRegistry(sql, node, limits.leaseMs);
  const claims = createAiCallClaims(sql, node, limits.leaseMs);
  const engine = createCallEngine({ engines: deps.engines, logger });
  const ai = createAiCalls({ ...deps, people: { registry, desk }, claims, leaseMs: limits.leaseMs });
  ai.attach(io.httpServer);
  const personAnswered = createAiCallHandOn(io, { shared: deps.shared, logger }, (id) => ai.personAnswered(id));
  const parts = { sql, now, logger, publisher, iceServers, registry, engine, widget, desk, personAnswered };
  const ending = createCallEnding(parts);
  const context = { ...parts, end: ending.end };
  widget.on('connection', (socket) => serveWidgetCalls(socket, context, deps.consumeCommand, ai));
  desk.on('connection', (socket) => serveDeskCalls(socket, context, deps.desk));
  const sweep = startCallSweep(context, limits);
  return {
    async close() {
      await ai.close();
      await sweep.stop();
      await ending.settled();
    },
  };
}
