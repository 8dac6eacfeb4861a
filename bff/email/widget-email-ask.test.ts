import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request, startStack, type TestStack } from '../../test/stack.ts';
import { newVisitor, sendWidgetMessage } from '../../test/widget-client.ts';
import { until } from '../../test/until.ts';
import { startEmailStack, type EmailStack } from '../../test/email-stack.ts';

/** A week closed every day: the inbox's people are away whenever the test runs. */
const CLOSED_WEEK = JSON.stringify(
  Array.from({ length: 7 }, (_, day) => ({
    day_of_week: day,
    closed_all_day: true,
    open_hour: null,
    open_minutes: null,
    close_hour: null,
    close_minutes: null,
    open_all_day: false,
  })),
);

interface EmailState {
  email: string | null;
  sending: boolean;
  ask_at: string | null;
}

describe.each(DRIVERS)('when the widget asks for an address, on $name', (driver) => {
  let email: EmailStack;
  let stack: TestStack;

  beforeAll(async () => {
    email = await startEmailStack(driver, { askAfterS: 60 });
    stack = email.stack;
  });
  afterAll(async () => {
    await email?.stop();
  });

  async function customer(question: string) {
    const { token } = await newVisitor(stack.url);
    const opened = await request(`${stack.url}/v1/widget/conversations`, { token, body: {} });
    const id = opened.body.id as string;
    expect((await sendWidgetMessage(stack.url, token, id, question, `q-${id}`)).status).toBe(201);
    const path = `${stack.url}/v1/widget/conversations/${id}/email`;
    const state = async () => {
      const answer = await request(path, { token });
      expect(answer.status).toBe(200);
      return answer.body as EmailState;
    };
    return { token, id, path, state };
  }

  it('does not ask while the AI answers in working hours, and asks once the customer has waited for a person', async () => {
    const { id, state } = await customer('I want to talk to a person');
    await stack.bff.relay.settled();
    const before = await state();
    expect(before.sending).toBe(true);
    expect(before.email).toBeNull();

    const handedOver = await until(state, (answer) => answer.ask_at !== null, 'the ask after the handover');
    const [notice] = await stack.bffSql.query<{ created_at: Date }>(
      "SELECT m.created_at FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.uuid = $1 AND m.attributes->>'notice' = 'handover'",
      [id],
    );
    expect(Date.parse(handedOver.ask_at!)).toBe(new Date(notice!.created_at).getTime() + 60_000);
  });

  it('asks at once while nobody works, and no more once the customer gave an address', async () => {
    const { id, path, token, state } = await customer('Do you ship abroad?');
    const [inbox] = await stack.bffSql.query<{ inbox_id: string }>(
      'SELECT inbox_id FROM conversations WHERE uuid = $1',
      [id],
    );
    await stack.bffSql.query('UPDATE inboxes SET working_hours_enabled = true, working_hours = $2 WHERE id = $1', [
      inbox!.inbox_id,
      CLOSED_WEEK,
    ]);
    try {
      const away = await state();
      expect(Math.abs(Date.parse(away.ask_at!) - Date.now())).toBeLessThan(10_000);

      const given = await request(path, { method: 'PUT', token, body: { email: 'later@customer.test' } });
      expect(given).toMatchObject({ status: 200, body: { email: 'later@customer.test' } });
      expect(await state()).toEqual({ email: 'later@customer.test', sending: true, ask_at: null });

      // Removed, the address is gone and the ask comes back.
      const removed = await request(path, { method: 'PUT', token, body: { email: null } });
      expect(removed).toMatchObject({ status: 200, body: { email: null } });
      expect((await state()).email).toBeNull();
      expect((await state()).ask_at).not.toBeNull();
    } finally {
      await stack.bffSql.query('UPDATE inboxes SET working_hours_enabled = false WHERE id = $1', [inbox!.inbox_id]);
    }
  });

  it("refuses another customer's conversation and changes nothing", async () => {
    const { path, state } = await customer('How do I return an item?');
    const stranger = await newVisitor(stack.url);
    const read = await request(path, { token: stranger.token });
    expect(read.status).toBe(404);
    expect(read.body.error.code).toBe('not_found');
    const written = await request(path, { method: 'PUT', token: stranger.token, body: { email: 'x@evil.test' } });
    expect(written.status).toBe(404);
    expect((await state()).email).toBeNull();
  });
});

describe('when e-mail is off', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('never asks', async () => {
    const { token } = await newVisitor(stack.url);
    const opened = await request(`${stack.url}/v1/widget/conversations`, { token, body: {} });
    const answer = await request(`${stack.url}/v1/widget/conversations/${opened.body.id}/email`, { token });
    expect(answer).toMatchObject({ status: 200, body: { email: null, sending: false, ask_at: null } });
  });
});
