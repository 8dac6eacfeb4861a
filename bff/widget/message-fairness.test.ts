import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startStack, type TestStack } from '../../test/stack.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';
import { MESSAGE_LIMITS } from './message-limits.ts';

/**
 * Fairness on the shop's engine key: every inbox of a BFF shares it, so new messages are counted
 * per customer and per inbox before they are kept and forwarded. Small limits here make it visible.
 */
describe('new messages a minute per customer and per inbox', () => {
  let stack: TestStack;
  // The limits count in clock-minute windows: each test sets the BFF's clock to the top of a minute
  // as it starts, so that its messages all fall in one window however late in a minute it starts
  // and however long the stack took to start.
  // (It only ever moves forward: the next top of a minute after the time it shows.)
  let clock = { real: Date.now(), shown: Date.now() };
  const startMinute = () => {
    clock = { real: Date.now(), shown: Math.ceil(now().getTime() / 60_000) * 60_000 };
  };
  const now = () => new Date(clock.shown + (Date.now() - clock.real));

  beforeAll(async () => {
    startMinute();
    stack = await startStack(undefined, {}, { now, messageLimits: { perCustomerPerMinute: 3, perInboxPerMinute: 6 } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function customer() {
    const { token } = await newVisitor(stack.url);
    const { id } = await openWidgetConversation(stack.url, token);
    const stored = async () =>
      (
        (await request(`${stack.url}/v1/widget/conversations/${id}/messages`, { token })).body.messages as {
          author: string;
        }[]
      ).filter((message) => message.author === 'customer').length;
    return {
      send: (text: string, messageId: string) => sendWidgetMessage(stack.url, token, id, text, messageId),
      stored,
    };
  }

  it("refuses one customer's fourth new message in a minute, keeps nothing of it, and still takes a retry of a kept one; then the inbox's limit holds for everyone", async () => {
    startMinute();
    const first = await customer();
    for (const n of [1, 2, 3]) expect((await first.send(`question ${n}`, `first-${n}`)).status).toBe(201);
    const over = await first.send('question 4', 'first-4');
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limited');
    // A retry of a message already kept is not a new one.
    expect((await first.send('question 1', 'first-1')).status).toBeLessThan(300);
    await stack.bff.relay.settled();
    expect(await first.stored()).toBe(3);

    // Another customer of the same inbox is not held up by the first one, and retries of a kept
    // message take nothing from their minute (each is counted, then given back)...
    const second = await customer();
    expect((await second.send('hello', 'second-1')).status).toBe(201);
    for (let retry = 0; retry < 4; retry++) expect((await second.send('hello', 'second-1')).status).toBe(200);
    expect((await second.send('hello again', 'second-2')).status).toBe(201);
    expect((await second.send('one more', 'second-3')).status).toBe(201);
    // ...until the inbox as a whole has had its six.
    const third = await customer();
    const refused = await third.send('anyone?', 'third-1');
    expect(refused.status).toBe(429);
    expect(await third.stored()).toBe(0);
  });

  it('has limits a person never reaches and a script does', () => {
    expect(MESSAGE_LIMITS.perCustomerPerMinute).toBeGreaterThanOrEqual(20);
    expect(MESSAGE_LIMITS.perInboxPerMinute).toBeGreaterThan(MESSAGE_LIMITS.perCustomerPerMinute * 10);
  });
});
