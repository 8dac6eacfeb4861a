import { ParleyError, type AiCallServerMessage } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { Publisher } from '../realtime/publisher.ts';
import { insertMessage } from '../store/messages.ts';
import type { AiCall } from './ai-call-record.ts';
import { ringRooms, type CallContext } from './call-context.ts';
import { callableAccount } from './calls-offered.ts';

/**
 * What the BFF does with the engine's words during a call with the AI (issue 30). The AI's answers
 * come as they always do (`conversation.reply` by webhook or feed); the customer's words were kept
 * at the engine only, so the BFF keeps the transcript of each turn as the customer's message too,
 * once per turn, and both the widget's tabs and the consoles see it.
 */
export async function keepHeardTurn(
  { sql, publisher, now }: { sql: Sql; publisher: Pick<Publisher, 'record' | 'publish'>; now: () => Date },
  call: Pick<AiCall, 'id' | 'conversation'>,
  text: string,
  turn: number,
): Promise<void> {
  const { conversation } = call;
  const change = await sql.transaction(async (tx) => {
    // upstream stays 'none': the engine has this message already, the relay must not send it again.
    const kept = { author: 'customer' as const, text, messageId: `${call.id}.turn.${turn}` };
    const { message, created } = await insertMessage(tx, conversation, kept, now());
    if (!created) return undefined;
    const made = { type: 'message.created' as const, message };
    await publisher.record(tx, conversation, [made]);
    return made;
  });
  if (change) publisher.publish(conversation, change);
}

/**
 * The AI handed over during the call: the consoles ring ("Incoming call") for a person call of the
 * customer's widget socket, as `call:start` rings them; a person who accepts continues the call
 * browser to browser. When nobody can take it now, the customer is told (`nobody_available`) and
 * the call goes on: their words reach the people as messages.
 */
export async function ringForHandover(
  { sql, now, people }: { sql: Sql; now: () => Date; people: Pick<CallContext, 'registry' | 'desk'> },
  call: AiCall,
  tell: (message: AiCallServerMessage) => void,
): Promise<void> {
  const { conversation } = call;
  let accountId: number;
  try {
    accountId = await callableAccount(sql, conversation.inboxId, now());
  } catch (error) {
    if (error instanceof ParleyError && error.code === 'not_available') return tell({ type: 'nobody_available' });
    throw error;
  }
  const ringing = await people.registry.add({
    conversationId: conversation.id,
    accountId,
    customerSocket: call.customerSocket,
    at: now(),
  });
  // A person call of this conversation rings already.
  if (!ringing) return;
  call.handoverCallId = ringing.id;
  people.desk.to(ringRooms(ringing)).emit('call:ringing', {
    call_id: ringing.id,
    conversation_id: conversation.id,
    customer_name: call.customer.name ?? null,
  });
  tell({ type: 'ringing', call_id: ringing.id });
}
