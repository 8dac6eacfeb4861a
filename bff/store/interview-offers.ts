import type { InterviewOffer } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';

/**
 * The research interview an inbox offers on the widget's home screen (issue 29), kept in its own
 * column of the inbox (migration 035): null when it offers none.
 */
export async function readInterviewOffer(db: Queryable, inboxId: string): Promise<InterviewOffer | null> {
  const [row] = await db.query<{ interview_offer: InterviewOffer | string | null }>(
    'SELECT interview_offer FROM inboxes WHERE id = $1',
    [inboxId],
  );
  const offer = row?.interview_offer ?? null;
  // A driver may give jsonb as its text.
  return typeof offer === 'string' ? (JSON.parse(offer) as InterviewOffer) : offer;
}

/** Sets (or, with null, removes) the inbox's offer. */
export async function writeInterviewOffer(db: Queryable, inboxId: string, offer: InterviewOffer | null): Promise<void> {
  await db.query('UPDATE inboxes SET interview_offer = $2 WHERE id = $1', [
    inboxId,
    offer === null ? null : JSON.stringify(offer),
  ]);
}
