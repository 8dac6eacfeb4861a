/**
 * A call the customer places (issue 30), loaded when Call is pressed: `call:start` on the chat's
 * socket, and the BFF says who answers. With the AI (the conversation is with it and the engine
 * speaks), the call goes over the BFF's stream (ai-call-session.ts); otherwise the people are rung
 * and a person who accepts talks browser to browser (person-call.ts).
 */
import type { WidgetSocket } from '../chat/socket.ts';
import { callTheAi } from './ai-call-session.ts';
import type { CallPhase, PlacedCall } from './call-phase.ts';
import { joinPersonCall } from './person-call.ts';

const ACK_MS = 10_000;

/** Calls about the conversation; `tell` hears each phase. */
export async function placeCall(
  socket: WidgetSocket,
  conversationId: string,
  audio: HTMLAudioElement,
  tell: (phase: CallPhase) => void,
): Promise<PlacedCall> {
  const joined = await socket.timeout(ACK_MS).emitWithAck('call:start', { conversation_id: conversationId });
  if (!joined.ok) throw new Error(joined.error.code);
  if (joined.data.with === 'ai') return callTheAi(socket, joined.data, audio, tell);
  return joinPersonCall(socket, joined.data.call_id, joined.data.ice_servers, audio, tell);
}
