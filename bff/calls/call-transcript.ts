import type { Sql } from '../../shared/server/index.ts';
import type { Publisher } from '../realtime/publisher.ts';
import { insertMessage } from '../store/messages.ts';
import { callLine } from './call-line.ts';
import type { Call } from './call-registry.ts';

/**
 * Writes the ended call's line into the conversation ("Call, 3 min 12 s"): a system message both
 * transcripts show, kept once per call (its message id is the call's), recorded for the webhooks
 * and pushed to the customer's tabs and the consoles.
 */
export async function writeCallLine(
  { sql, publisher, now }: { sql: Sql; publisher: Pick<Publisher, 'record' | 'publish'>; now: () => Date },
  call: Pick<Call, 'id' | 'conversation'>,
  durationS: number,
): Promise<void> {
  const { conversation } = call;
  const change = await sql.transaction(async (tx) => {
    const text = callLine(durationS);
    const { message, created } = await insertMessage(
      tx,
      conversation,
      { author: 'system', text, messageId: `call.${call.id}` },
      now(),
    );
    if (!created) return undefined;
    const made = { type: 'message.created' as const, message };
    await publisher.record(tx, conversation, [made]);
    return made;
  });
  if (change) publisher.publish(conversation, change);
}
