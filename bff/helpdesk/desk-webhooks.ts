import { ParleyError, type WidgetAttachment } from '../../shared/index.ts';
import {
  checkEndpointHost,
  checkEndpointUrl,
  type Queryable,
  type Sql,
  type TargetPolicy,
} from '../../shared/server/index.ts';
import type { Change, ChangeBatch, DurableSubscriber, Subscriber } from '../realtime/publisher.ts';
import { deskMessages, findDeskConversation } from './store/desk-conversations.ts';
import { deskTargets, writeDeskDeliveries, type DeskEvent, type DeskEventType } from './store/desk-webhooks.ts';
import { deskConversationShape, deskMessageShape } from './shapes.ts';
import { deskAttachmentShapes } from '../attachments/shapes.ts';

/**
 * A helpdesk webhook's or agent bot's receiver, checked as SPEC's webhook rule 1 says: https (or one
 * of the operator's allowed own origins), never a private address. A bad one is a 422 naming `field`.
 */
export function deskReceiverUrl(raw: string, policy: TargetPolicy, field: string): string {
  try {
    const url = checkEndpointUrl(raw, 'live', policy);
    checkEndpointHost(url, policy);
    return url.href;
  } catch (error) {
    if (!(error instanceof ParleyError)) throw error;
    throw new ParleyError('unprocessable', error.message, { problems: [{ field, message: error.message }] });
  }
}

/** What a change tells the helpdesk's webhooks: a message made or changed, or the conversation made or moved. */
function eventOf(
  change: Change,
): { type: DeskEventType; messageId?: number; changed?: Record<string, unknown> } | undefined {
  switch (change.type) {
    case 'conversation.created':
      return { type: 'conversation_created' };
    case 'message.created':
      return { type: 'message_created', messageId: change.message.id };
    case 'note.created':
      return { type: 'message_created', messageId: change.messageId };
    case 'survey.asked':
      return { type: 'message_created', messageId: change.question.id };
    case 'message.status':
    case 'message.answered':
      return { type: 'message_updated', messageId: change.messageId };
    case 'handed_over':
    case 'handed_back':
    case 'closed':
    case 'reopened':
    case 'snoozed':
      return { type: 'conversation_status_changed' };
    case 'assigned':
      return { type: 'conversation_updated', changed: { assignee_id: change.assigneeId } };
    default:
      // Typing and read marks are for the sockets only.
      return undefined;
  }
}

type WantedEvent = NonNullable<ReturnType<typeof eventOf>>;

/** The files of the step's new messages, by message id: a customer's new message brings their facts with it, no statement more. */
function newFilesOf(changes: readonly Change[]): Map<number, readonly WidgetAttachment[]> {
  return new Map(
    changes.flatMap((change) =>
      change.type === 'message.created' && change.message.attachments
        ? [[change.message.id, change.message.attachments] as const]
        : [],
    ),
  );
}

/** The Chatwoot-shaped events of a step's changes, with the conversation and its messages as the account's people see them. */
async function deskEventsOf(
  tx: Queryable,
  { conversation, changes }: ChangeBatch,
  wanted: readonly WantedEvent[],
  { accountId, at, publicUrl }: { accountId: number; at: Date; publicUrl: string },
): Promise<DeskEvent[]> {
  const found = await findDeskConversation(tx, accountId, conversation.id, at);
  if (!found) return [];
  const view = deskConversationShape(found);
  const ids = [...new Set(wanted.flatMap((event) => (event.messageId ? [event.messageId] : [])))];
  const files = newFilesOf(changes);
  const attachmentsOf = (id: number) =>
    deskAttachmentShapes(
      (files.get(id) ?? []).map((file) => ({
        id: file.id,
        contentType: file.content_type,
        name: file.name,
        size: file.size,
        width: file.width,
        height: file.height,
      })),
      { messageId: id, accountId, conversationId: conversation.id, base: publicUrl },
    );
  const messages = new Map(
    (ids.length ? await deskMessages(tx, conversation.id, { ids }) : []).map((row) => [
      row.id,
      deskMessageShape(row, attachmentsOf(row.id)),
    ]),
  );
  const events: DeskEvent[] = [];
  for (const event of wanted) {
    if (event.messageId === undefined) {
      events.push({
        type: event.type,
        body: { ...view, ...(event.changed ? { changed_attributes: event.changed } : {}) },
      });
      continue;
    }
    const message = messages.get(event.messageId);
    // A private note is for the people: it goes to webhooks (marked private) as in Chatwoot.
    if (message) events.push({ type: event.type, body: { ...message, conversation: view } });
  }
  return events;
}

/**
 * The helpdesk's webhooks as a durable subscriber of the publisher: a step's changes become
 * Chatwoot-shaped events (`message_created`, `conversation_status_changed`, …) written as deliveries
 * to the account's webhooks and to the outgoing_url of the inbox's agent bot, in the step's own
 * transaction. The shared webhook worker signs them (`X-Desk-*`), sends and retries them.
 * `nudge` is the live side: right after the commit it wakes the worker, when something was written.
 */
export function deskWebhooks({
  sql,
  now,
  wake,
  publicUrl = '',
}: {
  sql: Sql;
  now: () => Date;
  wake: () => void;
  publicUrl?: string | undefined;
}) {
  // Conversations whose step wrote deliveries: their batch, published after the commit, wakes the worker.
  const toSend = new Set<number>();

  async function record(tx: Queryable, batch: ChangeBatch): Promise<void> {
    const wanted = batch.changes.map(eventOf).filter((event) => event !== undefined);
    if (wanted.length === 0) return;
    const targets = await deskTargets(tx, batch.conversation.inboxId);
    const [target] = targets;
    if (!target) return;
    const at = now();
    const events = await deskEventsOf(tx, batch, wanted, { accountId: target.accountId, at, publicUrl });
    if ((await writeDeskDeliveries(tx, targets, events, at)) > 0) toSend.add(batch.conversation.id);
  }

  /**
   * `webwidget_triggered`: a customer opened the chat on a page (Chatwoot's event of the same name),
   * with who they are, their latest conversation and where they are.
   */
  async function widgetOpened(
    customer: { inboxId: string; customerRef: string; name?: string | undefined; verified: boolean },
    info: { referer: string | null; language: string | null },
  ): Promise<void> {
    const count = await sql.transaction(async (tx) => {
      const targets = await deskTargets(tx, customer.inboxId);
      const [target] = targets;
      if (!target) return 0;
      const at = now();
      const [latest] = await tx.query<{ id: number }>(
        'SELECT id FROM conversations WHERE inbox_id = $1 AND customer_ref = $2 ORDER BY id DESC LIMIT 1',
        [customer.inboxId, customer.customerRef],
      );
      const conversation = latest && (await findDeskConversation(tx, target.accountId, latest.id, at));
      const body = {
        source_id: customer.customerRef,
        contact: { identifier: customer.customerRef, name: customer.name ?? null, verified: customer.verified },
        current_conversation: conversation ? deskConversationShape(conversation) : null,
        event_info: {
          initiated_at: { timestamp: at.toISOString() },
          referer: info.referer,
          browser_language: info.language,
        },
      };
      return writeDeskDeliveries(tx, targets, [{ type: 'webwidget_triggered', body }], at);
    });
    if (count > 0) wake();
  }

  return {
    record: record satisfies DurableSubscriber,
    nudge: ((batch: ChangeBatch) => {
      if (toSend.delete(batch.conversation.id)) wake();
    }) satisfies Subscriber,
    widgetOpened,
  };
}

export type DeskWebhooks = ReturnType<typeof deskWebhooks>;
