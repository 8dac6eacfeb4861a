import type { Socket } from 'socket.io';
import {
  CallCommand,
  CallSignalCommand,
  ParleyError,
  type DeskClientEvents,
  type DeskServerEvents,
} from '../../shared/index.ts';
import { parseWith } from '../../shared/server/index.ts';
import type { DeskConversationService } from '../helpdesk/desk-conversation-service.ts';
import { standingStill, type DeskSocketData } from '../helpdesk/desk-socket-access.ts';
import { answer } from './call-answers.ts';
import { ringRooms, type CallContext } from './call-context.ts';
import type { Call } from './call-registry.ts';

type DeskSocket = Socket<DeskClientEvents, DeskServerEvents, Record<string, never>, DeskSocketData>;

/**
 * The people's side of person calls on a `/desk` socket: `call:accept` takes a ringing call of a
 * conversation the person may see (once: a second accept is refused), `call:decline` turns it
 * down, `call:signal` goes to the customer's socket (only from the socket that accepted), and
 * `call:hang_up` and the socket's end finish the call.
 */
export function serveDeskCalls(socket: DeskSocket, context: CallContext, desk: DeskConversationService): void {
  const { logger, registry, end } = context;
  /** A ringing or running call of a conversation this person may see now (404 otherwise, as for any conversation). */
  const visibleCall = async (payload: unknown): Promise<Call> => {
    const { call_id } = parseWith(CallCommand, payload, 'payload');
    const current = await standingStill(context.sql, socket.data, context.now());
    const call = await registry.get(call_id);
    if (!current || !call || call.accountId !== socket.data.accountId)
      throw new ParleyError('not_found', 'No such call.');
    await desk.find(call.accountId, socket.data.caller, current.standing, call.conversation.id);
    return call;
  };
  socket.on('call:accept', (payload, ack) =>
    answer(ack, logger, async () => accept(socket, context, await visibleCall(payload))),
  );
  socket.on('call:decline', (payload, ack) =>
    answer(ack, logger, async () => {
      const call = await visibleCall(payload);
      if (call.person) throw new ParleyError('conflict', 'This call has been taken already.');
      await end(call.id, 'person');
      return null;
    }),
  );
  socket.on('call:signal', (payload, ack) =>
    answer(ack, logger, async () => {
      const { call_id, signal } = parseWith(CallSignalCommand, payload, 'payload');
      const call = await takenHere(socket, context, call_id);
      context.widget.to(call.customerSocket).emit('call:signalled', { call_id, signal });
      return null;
    }),
  );
  socket.on('call:hang_up', (payload, ack) =>
    answer(ack, logger, async () => {
      const call = await takenHere(socket, context, parseWith(CallCommand, payload, 'payload').call_id);
      await end(call.id, 'person');
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

/** The call this socket accepted; any other is not found. */
async function takenHere(socket: DeskSocket, { registry }: CallContext, callId: string): Promise<Call> {
  const call = await registry.get(callId);
  if (!call || call.person?.socket !== socket.id) throw new ParleyError('not_found', 'No call of yours with this id.');
  return call;
}

/** The person takes the call: the other consoles stop ringing, the customer's side is told, the engine begins its call. */
async function accept(socket: DeskSocket, context: CallContext, ringing: Call) {
  const { caller } = socket.data;
  if (caller.kind !== 'user') throw new ParleyError('forbidden', 'Only a person can take a call.');
  if (ringing.person) throw new ParleyError('conflict', 'This call has been taken already.');
  const name = caller.user.displayName ?? caller.user.name;
  const taken = { socket: socket.id, userId: caller.user.id, name, at: context.now() };
  const call = await context.registry.answer(ringing.id, taken);
  if (!call) throw new ParleyError('conflict', 'This call has been taken or has ended already.');
  const gone = { call_id: call.id, duration_s: 0, ended_by: 'person' as const, missed: false };
  context.desk.to(ringRooms(call)).except(socket.id).emit('call:ended', gone);
  context.widget.to(call.customerSocket).emit('call:accepted', { call_id: call.id, person_name: name });
  context.personAnswered(call.id);
  beginAtEngine(context, call).catch((error: unknown) =>
    context.logger.error({ err: error, call: call.id }, 'the engine’s call was not noted'),
  );
  return { call_id: call.id, conversation_id: call.conversation.id, ice_servers: context.iceServers };
}

/** Begins the engine's call and notes it; a call that ended meanwhile (on any node) is ended there too. */
async function beginAtEngine({ engine, registry }: CallContext, call: Call): Promise<void> {
  const engineCallId = await engine.begin(call.conversation);
  if (!engineCallId) return;
  const noted = await registry.recordEngineCall(call.id, engineCallId);
  if (noted?.ended) await engine.end(call.conversation, engineCallId, noted.ended.by, noted.ended.reason);
}
