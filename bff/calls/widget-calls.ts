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
import { answer } from './call-answers.ts';
import { ringRooms, type CallContext } from './call-context.ts';
import type { Call } from './call-registry.ts';
import { callableAccount } from './calls-offered.ts';

type WidgetSocket = Socket<WidgetClientEvents, WidgetServerEvents, Record<string, never>, { session: Session }>;

/** How long a call rings before it is missed. */
export const RING_MS = 60_000;

/**
 * The customer's side of person calls on a `/widget` socket: `call:start` rings the consoles of
 * the conversation's inbox, `call:signal` goes to the person who accepted (only from the socket
 * that called), `call:hang_up` and the socket's end finish the call.
 */
export function serveWidgetCalls(
  socket: WidgetSocket,
  context: CallContext,
  consumeCommand: (session: Session) => Promise<void>,
): void {
  const { logger, registry, end } = context;
  const { session } = socket.data;
  const command = async <T>(payload: unknown, run: () => Promise<T>) => {
    await consumeCommand(session);
    return run();
  };
  socket.on('call:start', (payload, ack) =>
    answer(ack, logger, () =>
      command(payload, () => startCall(socket, context, parseWith(CallStartCommand, payload, 'payload'))),
    ),
  );
  socket.on('call:signal', (payload, ack) =>
    answer(ack, logger, async () => {
      const { call_id, signal } = parseWith(CallSignalCommand, payload, 'payload');
      const call = ownCall(socket, context, call_id);
      if (!call.person) throw new ParleyError('invalid_state', 'Nobody has taken this call yet.');
      context.desk.to(call.person.socket).emit('call:signalled', { call_id, signal });
      return null;
    }),
  );
  socket.on('call:hang_up', (payload, ack) =>
    answer(ack, logger, async () => {
      end(ownCall(socket, context, parseWith(CallCommand, payload, 'payload').call_id).id, 'customer');
      return null;
    }),
  );
  socket.on('disconnect', () => {
    for (const call of registry.ofSocket(socket.id)) if (call.customerSocket === socket.id) end(call.id, 'network');
  });
}

/** The call this socket made; any other is not found (a customer never reaches another's call). */
function ownCall(socket: WidgetSocket, { registry }: CallContext, callId: string): Call {
  const call = registry.get(callId);
  if (!call || call.customerSocket !== socket.id) throw new ParleyError('not_found', 'No call of yours with this id.');
  return call;
}

async function startCall(socket: WidgetSocket, context: CallContext, { conversation_id }: CallStartCommand) {
  const { sql, now, registry, desk, iceServers, end } = context;
  const { session } = socket.data;
  const conversation = await findCustomerConversation(sql, session, conversation_id);
  if (!conversation) throw new ParleyError('not_found', 'No conversation of yours with this id.');
  if (conversation.status === 'resolved')
    throw new ParleyError('invalid_state', 'This conversation is closed: start a new one to call.');
  const accountId = await callableAccount(sql, conversation.inboxId, now());
  if (registry.ofConversation(conversation.id))
    throw new ParleyError('conflict', 'A call on this conversation is under way already.');
  const call = registry.add({ conversation, accountId, customerSocket: socket.id, ringOut: undefined });
  call.ringOut = setTimeout(() => end(call.id, 'person'), RING_MS);
  desk.to(ringRooms(call)).emit('call:ringing', {
    call_id: call.id,
    conversation_id: conversation.id,
    customer_name: session.name ?? null,
  });
  return { call_id: call.id, ice_servers: iceServers } satisfies CallJoined;
}
