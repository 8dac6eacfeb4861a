/**
 * Notes, in the transaction of each answer, that its conversation may owe the customer an e-mail:
 * the first answer makes a pending digest due `EMAIL_DIGEST_DELAY_S` later, the ones after it join
 * that digest. Written with the answer, so a restart loses none; whether to send is decided when
 * the digest is due (the customer's address, whether they read it or are there).
 */
import type { Queryable } from '../../shared/server/index.ts';
import type { ChangeBatch, DurableSubscriber } from '../realtime/publisher.ts';
import { noteDigestDue } from './email-store.ts';

export function digestRecording({ now, digestDelayS }: { now: () => Date; digestDelayS: number }): DurableSubscriber {
  return async (tx: Queryable, { conversation, changes }: ChangeBatch) => {
    for (const change of changes) {
      if (change.type !== 'message.created') continue;
      const { message } = change;
      if (message.author !== 'ai' && message.author !== 'human') continue;
      const at = now();
      await noteDigestDue(tx, {
        conversationId: conversation.id,
        afterId: message.id - 1,
        dueAt: new Date(at.getTime() + digestDelayS * 1000),
        now: at,
      });
    }
  };
}
