import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WidgetStart } from '../../shared/index.ts';
import type { RateLimiter } from '../../shared/server/index.ts';
import { DRIVERS, request, startStack, type TestStack } from '../../test/stack.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';

/**
 * `POST /v1/widget/start` (issue 34): what the widget shows when it opens, in one request a browser
 * sends without a CORS preflight, a form with the session token in it.
 */
describe.each(DRIVERS)('the widget start on $name', (driver) => {
  let stack: TestStack;
  // The customer's limit, refusing while `refusing` is set (120 requests a minute are slow to spend).
  const limit = { refusing: false };
  const widgetLimiter: RateLimiter = {
    consume: async (_key, limitPerMinute) => ({
      allowed: !limit.refusing,
      limit: limitPerMinute,
      remaining: limit.refusing ? 0 : limitPerMinute,
      resetS: Math.ceil(Date.now() / 1000) + 60,
    }),
    refund: async () => undefined,
  };
  beforeAll(async () => {
    stack = await startStack(driver, {}, { widgetLimiter });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** The request as the widget sends it: a form, no Authorization header. */
  const start = (fields: Record<string, string>) =>
    request(`${stack.url}/v1/widget/start`, {
      rawBody: `${new URLSearchParams(fields)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', origin: 'https://shop.example' },
    });

  it("gives the config, the customer's conversations and the history asked for, to a form with the token in it", async () => {
    const { token, customer_ref } = await newVisitor(stack.url);
    const conversation = await openWidgetConversation(stack.url, token);
    expect((await sendWidgetMessage(stack.url, token, conversation.id, 'Do you ship abroad?', 'm-1')).status).toBe(201);

    const response = await start({ token, conversation_id: conversation.id });

    expect(response.status, JSON.stringify(response.body)).toBe(200);
    // A simple request's answer must be readable by the page that sent it.
    expect(response.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    const body = WidgetStart.parse(response.body);
    expect(body.config.customer.customer_ref).toBe(customer_ref);
    expect(body.conversations.map((listed) => listed.id)).toEqual([conversation.id]);
    expect(body.history?.messages.map((message) => message.text)).toContain('Do you ship abroad?');
  });

  it('gives no history for a conversation of another customer, and the list without it', async () => {
    const other = await newVisitor(stack.url);
    const theirs = await openWidgetConversation(stack.url, other.token);
    const { token } = await newVisitor(stack.url);

    const response = await start({ token, conversation_id: theirs.id });

    expect(response.status).toBe(200);
    const body = WidgetStart.parse(response.body);
    expect(body.history).toBeNull();
    expect(body.conversations).toEqual([]);
  });

  it('takes the token in the Authorization header too, with a JSON body', async () => {
    const { token } = await newVisitor(stack.url);
    const response = await request(`${stack.url}/v1/widget/start`, { token, body: { locale: 'de' } });
    expect(response.status).toBe(200);
    expect(WidgetStart.parse(response.body).history).toBeNull();
  });

  it('refuses a form that is not valid with 400 invalid_request', async () => {
    const { token } = await newVisitor(stack.url);
    for (const fields of [
      { token, locale: 'not a language!' },
      { token, unknown: 'field' },
    ]) {
      const response = await start(fields);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
    }
  });

  it('refuses a form without a token, with a made-up token or a site key, with 401 unauthorized', async () => {
    for (const fields of [{}, { token: 'wst_made.up.token' }, { token: stack.siteKey }]) {
      const response = await start(fields);
      expect(response.status, JSON.stringify(fields)).toBe(401);
      expect(response.body.error.code).toBe('unauthorized');
    }
  });

  it("refuses a start over the customer's limit with 429 rate_limited, naming the shop and its e-mail", async () => {
    const { token } = await newVisitor(stack.url);
    await stack.bffSql.query("UPDATE inboxes SET email = 'help@shop.example' WHERE id = $1", [stack.inboxId]);
    limit.refusing = true;
    try {
      const response = await start({ token });
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(response.body.error.code).toBe('rate_limited');
      // The config would have shown them; the widget's limit notice shows them instead (issue 34).
      const [inbox] = await stack.bffSql.query<{ name: string }>('SELECT name FROM inboxes WHERE id = $1', [
        stack.inboxId,
      ]);
      expect(response.body.error.details).toEqual({ inbox: { name: inbox!.name, email: 'help@shop.example' } });
    } finally {
      limit.refusing = false;
    }
  });
});
