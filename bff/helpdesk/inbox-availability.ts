/**
 * Whether people are there to answer an inbox now, from their availability in the store (so every
 * node agrees): the widget's header and reply time follow it, and the AI's handover says when
 * nobody is; a handover may go round the available people in turn.
 */
import type { Queryable } from '../../shared/server/index.ts';
import { availableForInbox } from './store/availabilities.ts';

/** What the handover tells the customer when nobody who answers the inbox is online. */
export const NOBODY_AVAILABLE_NOTICE =
  'Nobody from our team is available right now. Leave your question here and we will answer as soon as we are back.';

/** The same, in the widget's other languages; the conversation's locale picks one (English otherwise). */
const NOBODY_AVAILABLE_NOTICES: Record<string, string> = {
  de: 'Gerade ist niemand aus unserem Team erreichbar. Schreiben Sie Ihre Frage hier, wir antworten, sobald wir zurück sind.',
  es: 'Ahora mismo no hay nadie de nuestro equipo disponible. Deje aquí su pregunta y le responderemos en cuanto volvamos.',
  fr: "Personne de notre équipe n'est disponible pour le moment. Laissez votre question ici, nous répondrons dès notre retour.",
  ar: 'لا يوجد أحد من فريقنا متاح الآن. اترك سؤالك هنا وسنجيب عليه فور عودتنا.',
  ja: '現在対応できる担当者がいません。ここにご質問を残していただければ、戻り次第お答えします。',
};

export function nobodyAvailableNotice(locale: string | null): string {
  return NOBODY_AVAILABLE_NOTICES[(locale ?? '').slice(0, 2).toLowerCase()] ?? NOBODY_AVAILABLE_NOTICE;
}

/**
 * True when someone who answers the inbox is online; false when nobody is; undefined while nobody of
 * its account has ever said their availability (presence is not in use there: nothing changes).
 */
export async function peopleAvailable(db: Queryable, inboxId: string): Promise<boolean | undefined> {
  const [used] = await db.query(
    'SELECT 1 FROM availabilities v JOIN inboxes i ON i.account_id = v.account_id WHERE i.id = $1 LIMIT 1',
    [inboxId],
  );
  if (!used) return undefined;
  return (await availableForInbox(db, inboxId)).length > 0;
}

/**
 * The next available person in turn for a conversation of the inbox handed over by the AI (round
 * robin: the one who was given a conversation of the inbox longest ago, or never), or undefined when
 * nobody is online.
 */
export async function nextInTurn(db: Queryable, inboxId: string): Promise<number | undefined> {
  const available = await availableForInbox(db, inboxId);
  if (!available.length) return undefined;
  const [row] = await db.query<{ user_id: number }>(
    `SELECT p.user_id FROM unnest($2::int[]) AS p(user_id)
     ORDER BY (SELECT max(c.id) FROM conversations c WHERE c.inbox_id = $1 AND c.assignee_id = p.user_id) ASC NULLS FIRST, p.user_id
     LIMIT 1`,
    [inboxId, available],
  );
  return row?.user_id;
}
