import type { CallEnded, CallEndReason } from '../../shared/index.ts';
import type { CallContext } from './call-context.ts';
import { ringRooms } from './call-context.ts';
import type { EndedBy } from './call-registry.ts';
import { writeCallLine } from './call-transcript.ts';

export interface CallEnding {
  end: CallContext['end'];
  /** Resolves once the ends begun so far are done (stored, told, and at the engine and in the transcript). */
  settled(): Promise<void>;
}

/**
 * Ends a call once, from any node: both sides (or, while it rang, every console it rang on) hear
 * `call:ended` through the adapter, wherever their sockets are; an answered call is ended at the
 * engine too (`call.ended`) and leaves its line in the transcript.
 */
export function createCallEnding(context: Omit<CallContext, 'end'>): CallEnding {
  const { registry, widget, desk, now, logger } = context;
  const pending = new Set<Promise<void>>();
  const endOnce = async (callId: string, endedBy: EndedBy, reason?: CallEndReason) => {
    const call = await registry.end(callId, { by: endedBy, reason, at: now() });
    if (!call?.ended) return;
    const { answeredAt } = call;
    const durationS = answeredAt ? Math.round((call.ended.at.getTime() - answeredAt.getTime()) / 1000) : 0;
    const ended: CallEnded = { call_id: call.id, duration_s: durationS, ended_by: endedBy, missed: !answeredAt };
    if (reason) ended.reason = reason;
    widget.to(call.customerSocket).emit('call:ended', ended);
    desk.to(call.person ? call.person.socket : ringRooms(call)).emit('call:ended', ended);
    if (!answeredAt) return;
    // Without the engine's call yet, the node that began it ends it when it comes (desk-calls.ts).
    await Promise.all([
      context.engine.end(call.conversation, call.engineCallId, endedBy, reason),
      writeCallLine(context, call, durationS),
    ]).catch((error: unknown) => logger.error({ err: error, call: call.id }, 'an ended call was not written down'));
  };
  const end = (callId: string, endedBy: EndedBy, reason?: CallEndReason) => {
    const ending = endOnce(callId, endedBy, reason);
    pending.add(ending);
    void ending.finally(() => pending.delete(ending)).catch(() => undefined);
    return ending;
  };
  return { end, settled: async () => void (await Promise.allSettled(pending)) };
}
