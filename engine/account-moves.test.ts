import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';
import { MOVE_TABLES } from './account-move-rules.ts';
import { addMonitor } from './store/monitors.ts';

/**
 * `POST /operator/v1/accounts/{id}/moves`: conversations of the installation's account move to an
 * account of their own with their events; a reader of the old feed whose cursor named a moved event
 * reads on; the monitors are copied and their findings go with the conversations; bad input is a
 * 4xx with a stable code; every table is accounted for.
 */
describe.each(DRIVERS)('moving conversations to an account of their own, on $name', (driver) => {
  let engine: TestEngine;
  const moves = (from: string, body: unknown, token = engine.operatorToken) =>
    request(`${engine.url}/operator/v1/accounts/${from}/moves`, { token, body });
  const conversationWithAnswer = async (customerRef: string) => {
    const opened = await request(`${engine.url}/v1/conversations`, {
      token: engine.apiKey,
      body: { customer_ref: customerRef },
    });
    expect(opened.status).toBe(201);
    const id = opened.body.id as string;
    const sent = await request(`${engine.url}/v1/conversations/${id}/messages`, {
      token: engine.apiKey,
      body: { text: 'How do I return an item?', message_id: `${customerRef}-1` },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
    return id;
  };

  beforeAll(async () => {
    engine = await startEngine(driver);
  });
  afterAll(() => engine?.stop());

  it('moves a conversation with its events to a new account, and the old feed reads on past them', async () => {
    const moving = await conversationWithAnswer('customer-moving');
    const staying = await conversationWithAnswer('customer-staying');
    const feed = await request(`${engine.url}/v1/events?limit=100`, { token: engine.apiKey });
    const movingEvents = (feed.body.events as { id: string; conversation_id: string }[]).filter(
      (event) => event.conversation_id === moving,
    );
    const cursor = movingEvents.at(-1)!.id;

    const moved = await moves(engine.accountId, {
      reference: 'test-move-one',
      name: 'Moved shop',
      conversation_ids: [moving],
      feed_cursors: { sandbox: cursor },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.moved).toBe(1);
    // Every moved event came before the cursor: the new feed is read on from its last.
    expect(moved.body.feed_cursors.sandbox).toBe(movingEvents.at(-1)!.id);
    const own = moved.body.keys.test as string;
    const newFeed = await request(`${engine.url}/v1/events?limit=100`, { token: own });
    expect(newFeed.body.events.map((event: { id: string }) => event.id)).toEqual(movingEvents.map((event) => event.id));
    expect((await request(`${engine.url}/v1/conversations/${moving}/export`, { token: own })).status).toBe(200);
    expect(
      (await request(`${engine.url}/v1/conversations/${moving}/transcript`, { token: engine.apiKey })).status,
    ).toBe(404);
    expect(
      (await request(`${engine.url}/v1/conversations/${staying}/transcript`, { token: engine.apiKey })).status,
    ).toBe(200);
    // The old account's reader, whose cursor names a moved event, reads on.
    const readOn = await request(`${engine.url}/v1/events?after=${cursor}`, { token: engine.apiKey });
    expect(readOn.status).toBe(200);

    // Sent again: nothing more moves, the account is the same, the earlier keys are revoked.
    const again = await moves(engine.accountId, {
      reference: 'test-move-one',
      name: 'Moved shop',
      conversation_ids: [moving],
    });
    expect(again.body).toMatchObject({ account_id: moved.body.account_id, moved: 0 });
    expect((await request(`${engine.url}/v1/me`, { token: own })).status).toBe(401);
    // The moved account can be deleted with all it holds.
    const deleted = await request(`${engine.url}/operator/v1/accounts/${again.body.account_id}`, {
      method: 'DELETE',
      token: engine.operatorToken,
    });
    expect(deleted.status).toBe(204);
  });

  it("copies the monitors of both environments, with the moved conversations' findings under the copies", async () => {
    const installation = { accountId: engine.accountId };
    const watched = { name: 'Returns', criteria: { keywords: ['return'] }, severity: 'medium' as const };
    const sandbox = await addMonitor(engine.sql, { ...installation, environment: 'sandbox' }, watched);
    const live = await addMonitor(engine.sql, { ...installation, environment: 'live' }, watched);
    const moving = await conversationWithAnswer('customer-watched');
    await engine.engine.monitors.drain();
    const found = await request(`${engine.url}/v1/monitors/${sandbox.id}/findings`, { token: engine.apiKey });
    // The customer's question and the AI's answer both name a return.
    const findings = (found.body.findings as { id: string; conversation_id: string }[]).filter(
      (row) => row.conversation_id === moving,
    );
    expect(findings).toHaveLength(2);

    const move = { reference: 'test-move-monitors', name: 'Watched shop', conversation_ids: [moving] };
    const moved = await moves(engine.accountId, move);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const read = async (keys: { test: string; live: string }) => {
      const [monitors, liveMonitors] = await Promise.all([
        request(`${engine.url}/v1/monitors`, { token: keys.test }),
        request(`${engine.url}/v1/monitors`, { token: keys.live }),
      ]);
      const copy = monitors.body.monitors[0] as { id: string };
      const findings = await request(`${engine.url}/v1/monitors/${copy.id}/findings`, { token: keys.test });
      return { monitors: monitors.body.monitors, live: liveMonitors.body.monitors, findings: findings.body.findings };
    };
    const own = await read(moved.body.keys);
    expect(own.monitors).toEqual([{ ...sandbox, id: expect.not.stringMatching(sandbox.id) }]);
    expect(own.live).toEqual([{ ...live, id: expect.not.stringMatching(live.id) }]);
    expect(own.findings).toEqual(findings.map((row) => ({ ...row, monitor_id: own.monitors[0].id })));

    // Their events in the new feed name the copy.
    const feed = await request(`${engine.url}/v1/events?limit=100`, { token: moved.body.keys.test });
    const events = feed.body.events as { type: string; data: { monitor_id: string } }[];
    const named = events.filter((event) => event.type === 'monitor.finding').map((event) => event.data.monitor_id);
    expect(named).toEqual([own.monitors[0].id, own.monitors[0].id]);

    // The installation keeps its monitor, without the moved conversation's findings.
    const kept = await request(`${engine.url}/v1/monitors`, { token: engine.apiKey });
    expect(kept.body.monitors.map((monitor: { id: string }) => monitor.id)).toContain(sandbox.id);
    const left = await request(`${engine.url}/v1/monitors/${sandbox.id}/findings`, { token: engine.apiKey });
    expect(left.body.findings.filter((row: { conversation_id: string }) => row.conversation_id === moving)).toEqual([]);

    // The copy does not read the moved messages again, and a re-run changes nothing.
    await engine.engine.monitors.drain();
    const again = await moves(engine.accountId, move);
    expect(again.body).toMatchObject({ account_id: moved.body.account_id, moved: 0 });
    expect(await read(again.body.keys)).toEqual(own);
  });

  it('answers bad input with a 4xx and a stable code', async () => {
    const body = { reference: 'test-move-bad', name: 'Bad', conversation_ids: [] };
    expect((await moves(engine.accountId, body, engine.apiKey)).status).toBe(401);
    const unknown = await moves('acc_0000000000000000', body);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);
    const malformed = await moves(engine.accountId, { ...body, reference: 'x' });
    expect([malformed.status, malformed.body.error.code]).toEqual([400, 'invalid_request']);
    const other = await engine.issueKey({ otherAccount: true });
    const theirs = await request(`${engine.url}/v1/conversations`, {
      token: other.key,
      body: { customer_ref: 'theirs' },
    });
    const refused = await moves(engine.accountId, { ...body, conversation_ids: [theirs.body.id] });
    expect([refused.status, refused.body.error.code]).toEqual([422, 'unprocessable']);
  });

  it('names every table that holds an account or a conversation', async () => {
    const tables = await engine.sql.query<{ table_name: string }>(
      `SELECT DISTINCT table_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND column_name IN ('account_id', 'conversation_id')`,
    );
    expect(tables.map((row) => row.table_name).filter((table) => !MOVE_TABLES.includes(table))).toEqual([]);
  });
});
