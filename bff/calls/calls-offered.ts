import { ParleyError } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import { peopleAvailable } from '../helpdesk/inbox-availability.ts';
import { ALWAYS_OPEN, isAway } from '../store/inbox-presentation.ts';
import { findInbox } from '../store/inboxes.ts';
import { readCallsEnabled } from './calls-setting.ts';

/**
 * The account whose people a customer of the inbox may call now, or `not_available`: the inbox
 * allows calls, it is within its working hours, and someone who answers it is online (the people's
 * half of the widget's `features.calls`, bff/widget/widget-config.ts; the other half is an engine
 * that speaks, and a call with the AI does not come here: ai-calls.ts takes it first).
 */
export async function callableAccount(db: Queryable, inboxId: string, now: Date): Promise<number> {
  const inbox = await findInbox(db, inboxId);
  const [row] = await db.query<{ account_id: number | null }>('SELECT account_id FROM inboxes WHERE id = $1', [
    inboxId,
  ]);
  if (!inbox || row?.account_id == null || !(await readCallsEnabled(db, inboxId)))
    throw new ParleyError('not_available', 'This inbox does not take calls.');
  const away = inbox.workingHoursEnabled && isAway(inbox.presentation.workingHours ?? ALWAYS_OPEN, inbox.timezone, now);
  if (away || (await peopleAvailable(db, inboxId)) !== true)
    throw new ParleyError('not_available', 'Nobody is available to take a call now.');
  return row.account_id;
}
