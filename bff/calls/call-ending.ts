import type { CallContext } from './call-context.ts';
import { ringRooms } from './call-context.ts';
import type { EndedBy } from './call-registry.ts';
import { writeCallLine } from './call-transcript.ts';

/**
 * Ends a call once: both sides (or, while it rang, every console it rang on) hear `call:ended`; an
 * answered call is ended at the engine too (`call.ended`) and leaves its line in the transcript.
 */
export function createCallEnding(context: Omit<CallContext, 'end'>): CallContext['end'] {
  const { registry, widget, desk, now, logger } = context;
  return (callId: string, endedBy: EndedBy) => {
    const call = registry.take(callId);
    if (!call) return;
    clearTimeout(call.ringOut);
    const answeredAt = call.answeredAt;
    const durationS = answeredAt === undefined ? 0 : Math.round((now().getTime() - answeredAt) / 1000);
    const ended = { call_id: call.id, duration_s: durationS, ended_by: endedBy, missed: answeredAt === undefined };
    widget.to(call.customerSocket).emit('call:ended', ended);
    desk.to(call.person ? call.person.socket : ringRooms(call)).emit('call:ended', ended);
    if (answeredAt === undefined) return;
    const atEngine = (async () => context.engine.end(call.conversation, await call.engineCallId, endedBy))();
    void Promise.all([atEngine, writeCallLine(context, call, durationS)]).catch((error: unknown) =>
      logger.error({ err: error, call: call.id }, 'an ended call was not written down'),
    );
  };
}
