import type { WidgetMessage } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import {
  CONVERSATION_COLUMNS,
  isConversationUuid,
  toConversationRecord,
  type ConversationOwner,
  type ConversationRecord,
  type ConversationRow,
} from './conversations.ts';
import { findMessageByMessageId, insertMessage } from './messages.ts';

/**
 * Keeping a customer's message: the one way the widget (and the Client API) stores what a customer
 * writes, in the caller's transaction. Two statements, each of one concern: the conversation is
 * found for its owner and locked, then the message is inserted.
 */

/** What the statement checks of the widget's session: its token `jti` not revoked, its identity not ended at or after `issuedAt`. */
export interface SessionCheck {
  jti: string;
  issuedAt: Date;
}

/** A customer's message as the widget (or the Client API) sends it. */
export interface CustomerMessage {
  text: string;
  messageId: string;
}

/** What to keep: whose conversation, which message, when; `standing` asks whether the session still stands. */
export interface CustomerMessageRequest {
  owner: ConversationOwner;
  uuid: string;
  message: CustomerMessage;
  now: Date;
  /** The widget's session check left to this step: a revoked token or an identity ended since it was issued finds nothing. */
  standing?: SessionCheck | undefined;
}

/**
 * What `storeCustomerMessage` found: the customer's conversation (locked), and the message (new,
 * or the copy kept before with the same `message_id`), or none when the conversation is resolved
 * and the message is new (it is not kept).
 */
export interface StoredCustomerMessage {
  conversation: ConversationRecord;
  stored: { message: WidgetMessage; created: boolean } | undefined;
}

/**
 * The customer's conversation, locked until the transaction ends, which orders its messages (ids
 * commit in the order they are taken). Scoped to its owner (inbox, customer, environment) as every
 * lookup is. Finds nothing for a revoked session, for an identity ended since the session was
 * issued (in this statement's snapshot, so the check and the write cannot be told apart), or when
 * the inbox's account is suspended.
 */
export async function lockCustomerConversation(
  tx: Queryable,
  owner: ConversationOwner,
  uuid: string,
  standing?: SessionCheck,
): Promise<ConversationRecord | undefined> {
  if (!isConversationUuid(uuid)) return undefined;
  const [row] = await tx.query<ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS} FROM conversations c
     WHERE c.uuid = $1 AND c.inbox_id = $2 AND c.customer_ref = $3 AND c.environment = $4
       AND NOT EXISTS (SELECT 1 FROM revoked_sessions WHERE jti = $5)
       AND NOT EXISTS (SELECT 1 FROM revoked_identities WHERE inbox_id = $2 AND customer_ref = $3 AND revoked_at >= $6)
       AND NOT EXISTS (SELECT 1 FROM inboxes i JOIN accounts a ON a.id = i.account_id WHERE i.id = $2 AND a.status = 'suspended')
     FOR UPDATE`,
    [uuid, owner.inboxId, owner.customerRef, owner.environment, standing?.jti ?? null, standing?.issuedAt ?? null],
  );
  return row && toConversationRecord(row);
}

/**
 * Keeps a customer's message as `pending` for the relay: finds and locks the customer's
 * conversation, then inserts the message unless the conversation is resolved or the `message_id`
 * is kept already (then the first copy is given back, so every retry is safe); a new message ends
 * a snooze (Chatwoot's). Gives undefined for anyone else's conversation or a malformed id. Run it
 * in a transaction: what follows (the limits, the durable subscribers) may still undo it.
 */
export async function storeCustomerMessage(
  tx: Queryable,
  { owner, uuid, message, now, standing }: CustomerMessageRequest,
): Promise<StoredCustomerMessage | undefined> {
  const conversation = await lockCustomerConversation(tx, owner, uuid, standing);
  if (!conversation) return undefined;
  if (conversation.status !== 'resolved') {
    const stored = await insertMessage(
      tx,
      conversation,
      { author: 'customer', text: message.text, messageId: message.messageId, upstream: 'pending' },
      now,
    );
    return { conversation, stored };
  }
  const kept = await findMessageByMessageId(tx, conversation.id, message.messageId);
  return { conversation, stored: kept && { message: kept, created: false } };
}
