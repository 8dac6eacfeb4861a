import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeskStack, type DeskStack } from '../../test/desk-conversations-fixture.ts';
import { DRIVERS } from '../../test/stack.ts';
import { DeskConversation } from '../../shared/schemas/helpdesk/index.ts';

/**
 * Issue 31: a row of the people's list says who the customer is, what they wrote last, who has it,
 * its labels, how long the customer waits and how much is unread; the list sorts by newest activity
 * or longest waiting and pages by cursor; a person's reply to an unassigned conversation takes it.
 */
describe.each(DRIVERS)('the rows of the conversation list on $name', (driver) => {
  let desk: DeskStack;

  beforeAll(async () => {
    desk = await startDeskStack(driver);
  });
  afterAll(async () => {
    await desk?.stop();
  });

  const rowOf = async (id: number, query = '?status=all') =>
    (await desk.list(desk.admin.access_token, query)).payload.find((row) => row.id === id)!;

  it("shows the last message's first line, a readable name, waiting time and unread count; a reply assigns the person who wrote it", async () => {
    const customer = await desk.customerAsks('Where is my parcel?');
    const first = await rowOf(customer.id);
    expect(first.display_name).toMatch(/^Visitor \S{1,4}$/);
    expect(first.last_non_activity_message?.message_type).toBe(1);
    expect(first.waiting_since).toBeNull();

    const answer = await desk.app(`/conversations/${customer.id}/messages`, desk.agent.access_token, {
      body: { content: 'Sam here, let me look.' },
    });
    expect(answer.status).toBe(200);
    const taken = await rowOf(customer.id);
    expect(taken.assignee).toEqual({ id: desk.agent.id, name: 'Sam', available_name: 'Sam' });
    expect(taken.assignee_id).toBe(desk.agent.id);

    const written = await customer.writes('Still nothing.\nOrder 1042, sent last week');
    const waiting = await rowOf(customer.id);
    expect(waiting.last_non_activity_message).toMatchObject({ content: 'Still nothing.', message_type: 0 });
    expect(waiting.waiting_since).toBe(Math.floor(new Date(written.created_at).getTime() / 1000));
    expect(waiting.unread_count).toBeGreaterThanOrEqual(1);
    expect(waiting.labels).toEqual([]);
    expect(waiting.team).toBeNull();

    // Someone who has it keeps it when another person answers.
    await desk.app(`/conversations/${customer.id}/messages`, desk.admin.access_token, {
      body: { content: 'Ada too.' },
    });
    expect((await rowOf(customer.id)).assignee_id).toBe(desk.agent.id);
    // A note assigns nobody.
    const other = await desk.customerAsks('Do you sell gift cards?');
    await desk.app(`/conversations/${other.id}/messages`, desk.agent.access_token, {
      body: { content: 'note to self', private: true },
    });
    expect((await rowOf(other.id)).assignee_id).toBeNull();
  });

  it('puts the customer who waits longest first, and pages by cursor in every order without repeating a row', async () => {
    const waiting = await desk.customerAsks('Can I change my address?');
    await desk.app(`/conversations/${waiting.id}/messages`, desk.agent.access_token, { body: { content: 'Yes.' } });
    await waiting.writes('To Berlin, please.');
    const rows = (await desk.list(desk.admin.access_token, '?status=all&sort_by=waiting_since')).payload;
    expect(rows[0]!.waiting_since).not.toBeNull();
    expect(rows.findIndex((row) => row.waiting_since === null)).toBeGreaterThan(0);

    // Enough conversations for two pages: copies of one, each a minute older.
    await desk.stack.bffSql.query(
      `INSERT INTO conversations (uuid, inbox_id, customer_ref, environment, created_at, updated_at)
       SELECT gen_random_uuid(), inbox_id, 'vis_page' || g, environment, created_at - g * interval '1 minute', updated_at
       FROM conversations, generate_series(1, 30) AS g WHERE id = $1`,
      [waiting.id],
    );
    for (const sort of ['default', 'latest', 'waiting_since']) {
      const seen: number[] = [];
      let after: string | null = null;
      let all = 0;
      do {
        const query: string = `?status=all&sort_by=${sort}${after ? `&after=${after}` : ''}`;
        const page = await desk.list(desk.admin.access_token, query);
        all = page.meta.all_count;
        seen.push(...page.payload.map((row) => row.id));
        after = page.meta.next_cursor;
      } while (after);
      expect(new Set(seen).size, sort).toBe(seen.length);
      expect(seen.length, sort).toBe(all);
    }
  });

  it('refuses a cursor it did not give, or one of another order, with 422', async () => {
    const page = await desk.list(desk.admin.access_token, '?status=all&sort_by=latest');
    expect(page.meta.next_cursor).not.toBeNull();
    const bad = Buffer.from(JSON.stringify(['latest', "'; DROP TABLE conversations; --", 1])).toString('base64url');
    for (const after of ['nonsense', bad, page.meta.next_cursor!]) {
      const response = await desk.app(`/conversations?status=all&after=${after}`, desk.admin.access_token);
      expect(response.status, after).toBe(422);
      expect(response.body.errors[0].code).toBe('unprocessable');
    }
    expect((await desk.app('/conversations?sort_by=oldest', desk.admin.access_token)).status).toBe(422);
    expect(DeskConversation.array().parse(page.payload).length).toBe(25);
  });
});
