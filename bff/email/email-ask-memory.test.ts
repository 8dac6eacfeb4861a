import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { newVisitor, sendWidgetMessage } from '../../test/widget-client.ts';
import { startEmailStack, type EmailStack } from '../../test/email-stack.ts';

interface EmailState {
  email: string | null;
  sending: boolean;
  ask_at: string | null;
}

/**
 * Issue 32: "Get the reply by e-mail?" is asked once per conversation. A skip is kept with the
 * conversation at the BFF (the widget reloaded, another tab or device of the customer: not asked
 * again there, still asked in a new conversation), and a verified customer whose site's server gave
 * an address is not asked at all: the address is known, and the address form shows it. Real HTTP,
 * BFF and engine in-process, with e-mail on (SMTP to a local sink).
 */
describe.each(DRIVERS)('what the e-mail ask remembers, on $name', (driver) => {
  let email: EmailStack;
  let stack: TestStack;

  beforeAll(async () => {
    // Asked at once after a handover: no waiting in the test.
    email = await startEmailStack(driver, { askAfterS: 0 });
    stack = email.stack;
  });
  afterAll(async () => {
    await email?.stop();
  });

  const stateOf = async (token: string, id: string) => {
    const answer = await request(`${stack.url}/v1/widget/conversations/${id}/email`, { token });
    expect(answer.status).toBe(200);
    return answer.body as EmailState;
  };
  /** A conversation of `token`'s customer who asked for a person (the AI hands over), once the BFF has the handover. */
  async function handedOver(token: string, body: object = {}): Promise<string> {
    const opened = await request(`${stack.url}/v1/widget/conversations`, { token, body });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const id = opened.body.id as string;
    expect((await sendWidgetMessage(stack.url, token, id, 'I want to talk to a person', `q-${id}`)).status).toBe(201);
    await stack.bff.relay.settled();
    await until(
      () => stack.bffSql.query("SELECT 1 FROM conversations WHERE uuid = $1 AND handled_by = 'human'", [id]),
      (rows) => rows.length === 1,
      'the handover at the BFF',
    );
    return id;
  }

  it('does not ask again in a conversation whose ask was skipped, even after a reload; a new one is asked', async () => {
    const { token } = await newVisitor(stack.url);
    const id = await handedOver(token);
    expect((await stateOf(token, id)).ask_at).not.toBeNull();

    const skipped = await request(`${stack.url}/v1/widget/conversations/${id}/email/skip`, { method: 'POST', token });
    expect(skipped.status).toBe(204);
    // What a reloaded widget reads: no ask.
    expect(await stateOf(token, id)).toEqual({ email: null, sending: true, ask_at: null });
    const [row] = await stack.bffSql.query<{ at: Date | null }>(
      'SELECT email_ask_skipped_at AS at FROM conversations WHERE uuid = $1',
      [id],
    );
    expect(row!.at).not.toBeNull();
    // A second skip keeps the first.
    expect(
      (await request(`${stack.url}/v1/widget/conversations/${id}/email/skip`, { method: 'POST', token })).status,
    ).toBe(204);
    const [again] = await stack.bffSql.query<{ at: Date | null }>(
      'SELECT email_ask_skipped_at AS at FROM conversations WHERE uuid = $1',
      [id],
    );
    expect(again!.at).toEqual(row!.at);
    const other = await handedOver(token);
    expect((await stateOf(token, other)).ask_at).not.toBeNull();

    // The customer may still give an address from the options menu; kept on their contact, the other conversation has it too.
    const given = await request(`${stack.url}/v1/widget/conversations/${id}/email`, {
      method: 'PUT',
      token,
      body: { email: 'later@customer.test' },
    });
    expect(given.status).toBe(200);
    expect(await stateOf(token, other)).toMatchObject({ email: 'later@customer.test', ask_at: null });
  });

  it("refuses to skip another customer's conversation with 404, changing nothing", async () => {
    const { token } = await newVisitor(stack.url);
    const id = await handedOver(token);
    const stranger = await newVisitor(stack.url);
    const refused = await request(`${stack.url}/v1/widget/conversations/${id}/email/skip`, {
      method: 'POST',
      token: stranger.token,
    });
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('not_found');
    const [row] = await stack.bffSql.query<{ at: Date | null }>(
      'SELECT email_ask_skipped_at AS at FROM conversations WHERE uuid = $1',
      [id],
    );
    expect(row!.at).toBeNull();
  });

  it("keeps a verified customer's address from the site: known, so never asked, and shown in the address form", async () => {
    const minted = await request(`${stack.url}/v1/widget-sessions`, {
      token: stack.apiKey,
      body: { customer_ref: 'verified-mail-1', name: 'Vera', email: 'vera@customer.test' },
    });
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    const token = minted.body.token as string;
    const id = await handedOver(token);
    expect(await stateOf(token, id)).toEqual({ email: 'vera@customer.test', sending: true, ask_at: null });

    // An address typed in the pre-chat form wins over the site's.
    const typed = await handedOver(token, { email: 'vera.private@customer.test' });
    expect((await stateOf(token, typed)).email).toBe('vera.private@customer.test');

    // A visitor's session carries no address of its own: asked as before.
    const visitor = await newVisitor(stack.url);
    const asked = await handedOver(visitor.token);
    expect(await stateOf(visitor.token, asked)).toMatchObject({ email: null, ask_at: expect.any(String) });
  });
});
