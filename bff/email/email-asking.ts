/**
 * When the widget offers "Get the reply by e-mail?" (issue 32): at once while nobody answers
 * (outside the inbox's working hours, or nobody who answers it is online), else once the customer has waited `EMAIL_ASK_AFTER_S` for a
 * person after a handover that no person has answered yet. Never when e-mail is off, the
 * conversation has ended, the customer gave an address already (or is a verified customer whose
 * site gave one), or skipped the ask in this conversation (kept with it, so a reload, another tab
 * or device does not ask again).
 */
import type { Queryable, Sql } from '../../shared/server/index.ts';
import type { ConversationRecord } from '../store/conversations.ts';
import { ALWAYS_OPEN, isAway } from '../store/inbox-presentation.ts';
import { findInbox } from '../store/inboxes.ts';
import { peopleAvailable } from '../helpdesk/inbox-availability.ts';
import { customerEmail } from './email-store.ts';

/** When a handover no person has answered yet happened, or undefined (no handover, or a person answered since). */
async function unansweredHandoverAt(db: Queryable, conversationId: number): Promise<Date | undefined> {
  const [row] = await db.query<{ created_at: Date }>(
    `SELECT h.created_at FROM messages h
     WHERE h.conversation_id = $1 AND h.author = 'system' AND h.attributes->>'notice' = 'handover'
       AND NOT EXISTS (SELECT 1 FROM messages p WHERE p.conversation_id = $1 AND p.id > h.id AND p.author = 'human')
     ORDER BY h.id DESC LIMIT 1`,
    [conversationId],
  );
  return row && new Date(row.created_at);
}

/** Whether the customer skipped the ask in this conversation: it is not asked again there. */
async function askSkipped(db: Queryable, conversationId: number): Promise<boolean> {
  const [row] = await db.query<{ skipped: boolean }>(
    'SELECT email_ask_skipped_at IS NOT NULL AS skipped FROM conversations WHERE id = $1',
    [conversationId],
  );
  return row?.skipped === true;
}

/** The customer skipped "Get the reply by e-mail?" in this conversation (the first skip is kept). */
export async function skipEmailAsk(db: Queryable, conversationId: number, at: Date): Promise<void> {
  await db.query('UPDATE conversations SET email_ask_skipped_at = COALESCE(email_ask_skipped_at, $2) WHERE id = $1', [
    conversationId,
    at,
  ]);
}

/** Whether nobody answers the inbox now: outside its working hours (when it has them), or nobody is online. */
async function nobodyAnswers(sql: Sql, inboxId: string, at: Date): Promise<boolean> {
  const inbox = await findInbox(sql, inboxId);
  if (inbox?.workingHoursEnabled && isAway(inbox.presentation.workingHours ?? ALWAYS_OPEN, inbox.timezone, at))
    return true;
  // Undefined while the account does not use presence: then only the working hours tell.
  return (await peopleAvailable(sql, inboxId)) === false;
}

/**
 * When the widget should ask for an address: a time (now or later), or null for not at all.
 * `emailOn` is whether answers are e-mailed here (SMTP_URL is set).
 */
export async function emailAskAt(
  sql: Sql,
  conversation: Pick<ConversationRecord, 'id' | 'inboxId' | 'status' | 'handledBy'>,
  { emailOn, askAfterS, now }: { emailOn: boolean; askAfterS: number; now: Date },
): Promise<Date | null> {
  if (!emailOn || conversation.status === 'resolved') return null;
  if (await customerEmail(sql, conversation.id)) return null;
  if (await askSkipped(sql, conversation.id)) return null;
  if (await nobodyAnswers(sql, conversation.inboxId, now)) return now;
  if (conversation.handledBy !== 'human') return null;
  const handedOverAt = await unansweredHandoverAt(sql, conversation.id);
  return handedOverAt ? new Date(handedOverAt.getTime() + askAfterS * 1000) : null;
}
