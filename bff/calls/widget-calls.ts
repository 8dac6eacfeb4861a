import type { Socket } from 'socket.io';
import {
  CallCommand,
  CallSignalCommand,
  CallStartCommand,
  ParleyError,
  type CallJoined,
  type WidgetClientEvents,
  type WidgetServerEvents,
} from '../../shared/index.ts';
import { parseWith } from '../../shared/server/index.ts';
import { findCustomerConversation } from '../store/conversations.ts';
import type { Session } from '../widget/sessions.ts';
import type { AiCalls } from './ai-calls.ts';
import { answer } from './call-answers.ts';
import { ringRooms, type CallContext } from './call-context.ts';
import type { Call } from './call-registry.ts';
import { callableAccount } from './calls-offered.ts';

type WidgetSocket = Socket<WidgetClientEvents, WidgetServerEvents, Record<string, never>, { session: Session }>;

/**
 * The customer's side of person calls on a `/widget` socket: `call:start` rings the consoles of
 * the conversation's inbox, `call:signal` goes to the person who accepted (only from the socket
 * that called), `call:hang_up` and the socket's end finish the call.
 */
export function serveWidgetCalls(
  socket: WidgetSocket,
  context: CallContext,
  consumeCommand: (session: Session) => Promise<void>,
  ai: Pick<AiCalls, 'start'>,
): void {
  const { logger, registry, end } = context;
  const { session } = socket.data;
  const command = async <T>(payload: unknown, run: () => Promise<T>) => {
    await consumeCommand(session);
    return run();
  };
  socket.on('call:start', (payload, ack) =>
    answer(ack, logger, () =>
      command(payload, () => startCall(socket, context, ai, parseWith(CallStartCommand, payload, 'payload'))),
    ),
  );
  socket.on('call:signal', (payload, ack) =>
    answer(ack, logger, async () => {
      const { call_id, signal } = parseWith(CallSignalCommand, payload, 'payload');
      const call = await ownCall(socket, context, call_id);
      if (!call.person) throw new ParleyError('invalid_state', 'Nobody has taken this call yet.');
      context.desk.to(call.person.socket).emit('call:signalled', { call_id, signal });
      return null;
    }),
  );
  socket.on('call:hang_up', (payload, ack) =>
    answer(ack, logger, async () => {
      const call = await ownCall(socket, context, parseWith(CallCommand, payload, 'payload').call_id);
      await end(call.id, 'customer');
      return null;
    }),
  );
  socket.on('disconnect', () => {
    const ended = async () => {
      for (const callId of await registry.ofSocket(socket.id)) await end(callId, 'network');
    };
    ended().catch((error: unknown) => logger.error({ err: error }, 'the calls of a closed socket did not end'));
  });
}

/** The call this socket made; any other is not found (a customer never reaches another's call). */
async function ownCall(socket: WidgetSocket, { registry }: CallContext, callId: string): Promise<Call> {
  const call = await registry.get(callId);
  if (!call || call.customerSocket !== socket.id) throw new ParleyError('not_found', 'No call of yours with this id.');
  return call;
}

async function startCall(
  socket: WidgetSocket,
  context: CallContext,
  ai: Pick<AiCalls, 'start'>,
  { conversation_id }: CallStartCommand,
) {
  const { sql, now, registry, desk, iceServers } = context;
  const { session } = socket.data;
  const conversation = await findCustomerConversation(sql, session, conversation_id);
  if (!conversation) throw new ParleyError('not_found', 'No conversation of yours with this id.');
  if (conversation.status === 'resolved')
    throw new ParleyError('invalid_state', 'This conversation is closed: start a new one to call.');
  // With the AI when it has the conversation and speaks (ai-calls.ts); with people otherwise.
  const withAi = await ai.start(socket.id, session, conversation);
  if (withAi) return withAi;
  const accountId = await callableAccount(sql, conversation.inboxId, now());
  const at = now();
  const call = await registry.add({ conversationId: conversation.id, accountId, customerSocket: socket.id, at });
  if (!call) throw new ParleyError('conflict', 'A call on this conversation is under way already.');
  desk.to(ringRooms(call)).emit('call:ringing', {
    call_id: call.id,
    conversation_id: conversation.id,
    customer_name: session.name ?? null,
  });
  return { call_id: call.id, ice_servers: iceServers } satisfies CallJoined;
}
