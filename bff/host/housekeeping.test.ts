import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../../test/stack.ts';
import { SEEN_EVENTS_KEPT_MS } from './housekeeping.ts';

describe('housekeeping of the BFF store', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack(undefined, {}, { housekeepingMs: 0 });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('forgets engine events seen longer ago than a week, and keeps the ones seen since', async () => {
    const day = 24 * 60 * 60_000;
    const seen = (id: string, ageMs: number) =>
      stack.bffSql.query('INSERT INTO engine_events_seen (event_id, seen_at, webhook_at) VALUES ($1, $2, NULL)', [
        id,
        new Date(Date.now() - ageMs),
      ]);
    await seen('evt_housekeeping_old', SEEN_EVENTS_KEPT_MS + day);
    await seen('evt_housekeeping_edge', SEEN_EVENTS_KEPT_MS - day);
    await seen('evt_housekeeping_new', 60_000);

    expect(await stack.bff.housekeeping.runOnce()).toEqual({ seenEvents: 1 });
    const left = await stack.bffSql.query<{ event_id: string }>(
      "SELECT event_id FROM engine_events_seen WHERE event_id LIKE 'evt_housekeeping_%' ORDER BY event_id",
    );
    expect(left.map((row) => row.event_id)).toEqual(['evt_housekeeping_edge', 'evt_housekeeping_new']);
    expect(await stack.bff.housekeeping.runOnce()).toEqual({ seenEvents: 0 });
  });
});
