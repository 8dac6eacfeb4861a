import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request, type TestStack } from '../../test/stack.ts';
import { newVisitor } from '../../test/widget-client.ts';
import { startEmailStack, type EmailStack } from '../../test/email-stack.ts';
import { keepUnsubscribeToken, unsubscribe } from './unsubscribe-tokens.ts';

describe.each(DRIVERS)('the address a visitor types is kept on their contact, on $name', (driver) => {
  let email: EmailStack;
  let stack: TestStack;

  beforeAll(async () => {
    email = await startEmailStack(driver);
    stack = email.stack;
  });
  afterAll(async () => {
    await email?.stop();
  });

  const open = async (token: string) => {
    const opened = await request(`${stack.url}/v1/widget/conversations`, { token, body: {} });
    expect(opened.status).toBe(201);
    return opened.body.id as string;
  };
  const emailOf = async (token: string, id: string) =>
    (await request(`${stack.url}/v1/widget/conversations/${id}/email`, { token })).body as {
      email: string | null;
      ask_at: string | null;
    };
  const setEmail = (token: string, id: string, address: string | null) =>
    request(`${stack.url}/v1/widget/conversations/${id}/email`, { token, method: 'PUT', body: { email: address } });
  const contactOf = async (id: string) =>
    stack.bffSql.query<{ email: string | null }>(
      `SELECT k.email FROM contacts k JOIN conversations c ON c.inbox_id = k.inbox_id AND c.customer_ref = k.customer_ref
       WHERE c.uuid = $1`,
      [id],
    );

  it("uses the address typed in one conversation for the customer's next one, and on their contact for the team", async () => {
    const { token } = await newVisitor(stack.url);
    const first = await open(token);
    expect((await setEmail(token, first, 'kim@customer.test')).body).toEqual({ email: 'kim@customer.test' });
    expect(await contactOf(first)).toEqual([{ email: 'kim@customer.test' }]);

    const second = await open(token);
    expect(await emailOf(token, second)).toMatchObject({ email: 'kim@customer.test', ask_at: null });
  });

  it('lets the customer change the address, and remove it from the contact too', async () => {
    const { token } = await newVisitor(stack.url);
    const first = await open(token);
    await setEmail(token, first, 'old@customer.test');
    const second = await open(token);
    expect((await setEmail(token, second, 'new@customer.test')).status).toBe(200);
    expect(await contactOf(second)).toEqual([{ email: 'new@customer.test' }]);
    expect((await emailOf(token, second)).email).toBe('new@customer.test');

    expect((await setEmail(token, second, null)).body).toEqual({ email: null });
    expect(await contactOf(second)).toEqual([{ email: null }]);
    expect((await emailOf(token, second)).email).toBeNull();
    const third = await open(token);
    expect((await emailOf(token, third)).email).toBeNull();
  });

  it("forgets the address on the visitor's contact too when they unsubscribe from a digest", async () => {
    const { token } = await newVisitor(stack.url);
    const id = await open(token);
    await setEmail(token, id, 'leaving@customer.test');
    const [row] = await stack.bffSql.query<{ id: number }>('SELECT id::int AS id FROM conversations WHERE uuid = $1', [
      id,
    ]);
    const hash = `unsubscribe-test-${id}`;
    await keepUnsubscribeToken(stack.bffSql, { hash, conversationId: row!.id, now: new Date() });
    expect(await unsubscribe(stack.bffSql, hash, new Date())).toBe(true);
    expect(await contactOf(id)).toEqual([{ email: null }]);
    expect((await emailOf(token, await open(token))).email).toBeNull();
  });

  it('makes no contact for a visitor who only removes an address they never gave', async () => {
    const { token } = await newVisitor(stack.url);
    const id = await open(token);
    expect((await setEmail(token, id, null)).status).toBe(200);
    expect(await contactOf(id)).toEqual([]);
  });
});
