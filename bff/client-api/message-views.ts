/**
 * Messages as a Client API contact sees them, with their attachments: for the routes and the
 * realtime events alike.
 */
import type { Sql } from '../../shared/server/index.ts';
import { attachmentsOfMessages } from '../attachments/store.ts';
import { clientAttachmentUrl, publicAttachmentShape } from '../attachments/shapes.ts';
import { clientMessages, findClientMessage, type ClientMessageRow } from './store/client-views.ts';
import type { ContactRecord } from './store/contacts.ts';
import { messageShape } from './shapes.ts';

export const BOT_NAME = 'AI assistant';
/** The prefix of message ids the BFF makes for Client API messages sent without an echo_id. */
export const SERVER_MESSAGE_ID_PREFIX = 'srv.';

/** One message as the Client API shows it (for the routes and the realtime events); `base` goes before its attachments' paths. */
export async function loadClientMessage(sql: Sql, id: number, contact: ContactRecord, base = '') {
  const row = await findClientMessage(sql, id);
  return row && (await shapeClientMessages(sql, [row], contact, base))[0];
}

/** A page of a conversation's messages as the contact sees them; `base` goes before their attachments' paths. */
export async function loadClientMessages(
  sql: Sql,
  conversationId: number,
  contact: ContactRecord,
  options: { before?: number | undefined; limit: number },
  base: string,
) {
  return shapeClientMessages(sql, await clientMessages(sql, conversationId, options), contact, base);
}

/** Messages as the contact sees them, with their attachments (one more statement, for all of them). */
async function shapeClientMessages(sql: Sql, rows: readonly ClientMessageRow[], contact: ContactRecord, base: string) {
  const attachments = await attachmentsOfMessages(
    sql,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    messageShape(
      row,
      contact,
      BOT_NAME,
      (attachments.get(row.id) ?? []).map((attachment) =>
        publicAttachmentShape(attachment, {
          messageId: row.id,
          accountId: attachment.accountId,
          dataUrl: clientAttachmentUrl(base, {
            inboxIdentifier: attachment.inboxIdentifier ?? '',
            sourceId: contact.sourceId,
            conversationId: attachment.conversationId,
            id: attachment.id,
          }),
        }),
      ),
    ),
  );
}
