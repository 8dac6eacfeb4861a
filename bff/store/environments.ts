import type { Queryable } from '../../shared/server/index.ts';
import type { Environment } from './inboxes.ts';

/** Where the engine's feed of one environment has been read up to. */
export const feedCursorName = (environment: Environment): string => `engine_feed_cursor_${environment}`;

/**
 * What the BFF kept while it held one engine key belongs to that key's environment: conversations
 * without one, and the feed's cursor, are given it. Run at every start; once done, it changes nothing.
 */
export async function placeUnplacedState(db: Queryable, environment: Environment): Promise<void> {
  await db.query('UPDATE conversations SET environment = $1 WHERE environment IS NULL', [environment]);
  await db.query(
    `INSERT INTO settings (name, value) SELECT $1, value FROM settings WHERE name = 'engine_feed_cursor' ON CONFLICT (name) DO NOTHING`,
    [feedCursorName(environment)],
  );
  await db.query(`DELETE FROM settings WHERE name = 'engine_feed_cursor'`);
}
