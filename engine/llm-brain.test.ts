import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { shopActions } from '../test/shop-fixtures.ts';
import { completion, fakeModel } from '../test/fake-llm.ts';
import { request, startEngine, type TestEngine } from '../test/stack.ts';
import { defineAction, setSandboxFixture } from './index.ts';
import { NOT_SURE_MARK } from './brain/llm-brain.ts';

/**
 * Issue 13, the LLM brain. The model cannot run here, so a small OpenAI-compatible server written
 * for these tests stands in for it: real HTTP, `POST /v1/chat/completions`, scripted answers. The
 * engine under test is real (its store, its routes, its retrieval), and so is everything it sends.
 */

describe('the LLM brain (an OpenAI-compatible server written for the tests stands in for the model)', () => {
  const model = fakeModel();
  let engine: TestEngine;

  beforeAll(async () => {
    const baseUrl = await model.start();
    engine = await startEngine(undefined, undefined, { llm: { baseUrl, model: 'test-model', apiKey: 'sk-test' } });
    for (const action of shopActions) await defineAction(engine.sql, engine.accountId, action);
  });
  afterAll(async () => {
    await engine?.stop();
    await model.stop();
  });
  beforeEach(() => {
    model.requests.length = 0;
  });

  const open = async () =>
    (await request(`${engine.url}/v1/conversations`, { token: engine.apiKey, body: { customer_ref: 'llm-customer' } }))
      .body.id as string;
  const say = async (id: string, text: string) => {
    const response = await request(`${engine.url}/v1/conversations/${id}/messages`, {
      token: engine.apiKey,
      body: { text },
    });
    expect(response.status).toBe(200);
    return response.body.events as { type: string; data: any }[];
  };

  it("grounds the model in the matching passages with their titles, answers in the model's words and names the source", async () => {
    model.answer(() => ({
      body: completion('You can send it back within 30 days of delivery: open My orders and choose Return an item.'),
    }));
    const id = await open();
    const [reply] = await say(id, 'How do I return an item?');
    expect(reply!.type).toBe('conversation.reply');
    expect(reply!.data.text).toContain('You can send it back within 30 days of delivery');
    expect(reply!.data.text).toContain('Source: Returns and refunds › How do I return an item?');
    expect(reply!.data.text).toMatch(/Did that help\?$/);

    const [sent] = model.requests;
    expect(sent!.model).toBe('test-model');
    const system = sent!.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain('Returns and refunds › How do I return an item?');
    expect(system.content).toContain('within 30 days of delivery');
    expect(system.content).toContain(NOT_SURE_MARK);
    expect(sent!.messages.at(-1)).toEqual({ role: 'user', content: 'How do I return an item?' });
    // The account's actions are offered as tools.
    expect(sent!.tools?.map((tool) => tool.function.name).sort()).toEqual(['cancel_order', 'lookup_order']);
    expect(sent!.tools?.find((tool) => tool.function.name === 'lookup_order')!.function.parameters.required).toEqual([
      'order_number',
    ]);
  });

  it('gives a German question the English passages, asks for the answer in German with its source cited, and speaks German around it', async () => {
    model.answer(() => ({
      body: completion('Ja, Sie können mit PayPal bezahlen, außerdem mit Visa, Mastercard und Apple Pay. [1]'),
    }));
    const id = await open();
    const response = await request(`${engine.url}/v1/conversations/${id}/messages`, {
      token: engine.apiKey,
      body: { text: 'Kann ich mit PayPal bezahlen?', locale: 'de' },
    });
    expect(response.status).toBe(200);
    const [reply] = response.body.events as { type: string; data: any }[];

    const system = model.requests.at(-1)!.messages[0]!.content!;
    // The shop's articles are English only: the passages are, and the model is told they may be.
    expect(system).toContain('[1] Payments › Which payment methods do you accept? (in English)');
    expect(system).toContain('We accept Visa, Mastercard, American Express, PayPal');
    expect(system).toContain('The passages may be written in any language');
    expect(system).toContain('Write your answer in German, whatever the language of the passages');
    expect(system).toMatch(/Cite your source: .*square brackets/);

    // The citation names the source line's article and is not shown twice; the brain's own words are German.
    expect(reply!.data.text).toBe(
      'Ja, Sie können mit PayPal bezahlen, außerdem mit Visa, Mastercard und Apple Pay.\n\n' +
        'Quelle: Payments › Which payment methods do you accept?\n\nHat Ihnen das geholfen?',
    );
    expect(reply!.data.choices).toEqual([
      { label: 'Ja', value: 'Ja, das hat geholfen.' },
      { label: 'Nein', value: 'Nein, das hat nicht geholfen.' },
    ]);
  });

  it('asks for the answer in the language the customer writes in when the conversation has none', async () => {
    model.answer(() => ({ body: completion('Sí, puede pagar con PayPal. [1]') }));
    const id = await open();
    await say(id, '¿Puedo pagar con PayPal?');
    const system = model.requests.at(-1)!.messages[0]!.content!;
    expect(system).toContain('Write your answer in the language the customer writes in, whatever the language');
    expect(system).toContain('We accept Visa, Mastercard, American Express, PayPal');
  });

  it("turns the model's tool call into the SPEC's action request, with customer codes still masked", async () => {
    model.answer(() => ({
      body: completion(null, {
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"order_number":"12345"}' } },
        ],
      }),
    }));
    const id = await open();
    const events = await say(id, 'Has my parcel for order 12345 left yet? My card is 4111 1111 1111 1111');
    const actionRequest = events.find((event) => event.type === 'conversation.action_request');
    expect(actionRequest?.data).toMatchObject({
      type: 'action_request',
      action: 'lookup_order',
      inputs: { order_number: '12345' },
    });
    expect(JSON.stringify(model.requests.at(-1)!.messages)).not.toContain('4111 1111 1111 1111');
  });

  /** The model calls lookup_order, and, given the result as the tool's output, says it in its own words. */
  const lookupThenTell = (request: { messages: { role: string; content: string | null }[] }) =>
    request.messages.some((message) => message.role === 'tool')
      ? { body: completion('Good news: order 12345 is on its way with DHL and should arrive on Thursday.') }
      : {
          body: completion(null, {
            tool_calls: [
              {
                id: 'call_9',
                type: 'function',
                function: { name: 'lookup_order', arguments: '{"order_number":"12345"}' },
              },
            ],
          }),
        };

  it("gives a caller's action result back to the model, whose words tell the customer", async () => {
    model.answer(lookupThenTell);
    const live = (path: string, body: unknown) => request(`${engine.url}${path}`, { token: engine.liveApiKey, body });
    const id = (await live('/v1/conversations', { customer_ref: 'live-customer' })).body.id as string;
    const events = (await live(`/v1/conversations/${id}/messages`, { text: 'Where is my order 12345?' })).body
      .events as { type: string; data: any }[];
    const asked = events.find((event) => event.type === 'conversation.action_request')!;
    const result = { status: 'on its way', carrier: 'DHL', estimated_delivery: 'on Thursday' };
    expect(
      (
        await live(`/v1/conversations/${id}/action-results`, {
          action_request_id: asked.data.action_request_id,
          result,
        })
      ).status,
    ).toBe(202);
    const toolMessage = model.requests.at(-1)!.messages.find((message) => message.role === 'tool');
    expect(JSON.parse(toolMessage!.content!)).toEqual(result);
    const feed = (await request(`${engine.url}/v1/events?limit=1000`, { token: engine.liveApiKey })).body.events as {
      type: string;
      conversation_id: string;
      data: any;
    }[];
    const replies = feed.filter((event) => event.conversation_id === id && event.type === 'conversation.reply');
    expect(replies.at(-1)!.data.text).toBe(
      'Good news: order 12345 is on its way with DHL and should arrive on Thursday.',
    );
    // The card still shows the result's fields.
    expect(replies.at(-1)!.data.card.title).toBe('Order 12345');
  });

  it("gives a sandbox fixture's result back to the model at once, in the same answer", async () => {
    await setSandboxFixture(engine.sql, engine.accountId, 'lookup_order', {
      status: 'on its way',
      carrier: 'DHL',
      estimated_delivery: 'on Thursday',
    });
    model.answer(lookupThenTell);
    const id = await open();
    const events = await say(id, 'Where is my order 12345?');
    expect(events.map((event) => event.type)).toEqual(['conversation.action_request', 'conversation.reply']);
    expect(events[0]!.data.handled_by).toBe('sandbox');
    expect(events[1]!.data.text).toBe('Good news: order 12345 is on its way with DHL and should arrive on Thursday.');
  });

  it('asks for an input the tool call lacks, as the action defines it', async () => {
    model.answer(() => ({
      body: completion(null, {
        tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'lookup_order', arguments: '{}' } }],
      }),
    }));
    const id = await open();
    const [reply] = await say(id, 'Can you check on my order?');
    expect(reply!.data.text).toMatch(/What is your order number/);
  });

  it('says it is not sure and offers a person when the model says the passages do not answer', async () => {
    model.answer(() => ({ body: completion(NOT_SURE_MARK) }));
    const id = await open();
    const [reply] = await say(id, 'Do you sell gift cards for teachers?');
    expect(reply!.data.text).toMatch(/not sure/);
    expect(reply!.data.choices).toContainEqual({ label: 'Talk to a person', value: expect.any(String) });
  });

  /** Reads a streamed answer: every server-sent event with the time it arrived. */
  async function streamed(id: string, text: string, messageId?: string, onFirstDelta?: () => void) {
    const response = await fetch(`${engine.url}/v1/conversations/${id}/messages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${engine.apiKey}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ text, ...(messageId ? { message_id: messageId } : {}) }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events: { event: string; data: any; at: number }[] = [];
    let buffered = '';
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += Buffer.from(bytes).toString('utf8');
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1] ?? 'message';
        events.push({ event, data: JSON.parse(/^data: (.+)$/m.exec(block)![1]!), at: Date.now() });
        if (event === 'delta' && events.filter((seen) => seen.event === 'delta').length === 1) onFirstDelta?.();
      }
    }
    return events;
  }

  it('streams the reply while the model writes it, then gives the same result, and the feed gets exactly one reply', async () => {
    const pieces = ['You can ', 'return an item ', 'within 30 days ', 'of delivery.'];
    // The model writes its last piece only once the caller has the first one, or after 5 s: an
    // engine that held the pieces back until the end would then show its first one too late.
    let release = () => {};
    const beforeLast = new Promise<void>((resolve) => {
      release = resolve;
      setTimeout(resolve, 5_000).unref();
    });
    model.answer(() => ({ pieces, beforeLast }));
    const id = await open();
    const events = await streamed(id, 'How do I return an item?', 'stream-1', release);
    const deltas = events.filter((event) => event.event === 'delta');
    expect(deltas.map((event) => event.data.text)).toEqual(pieces);
    // The first piece reached the caller before the model had even written its last one.
    expect(deltas[0]!.at).toBeLessThanOrEqual(model.streamedAt.last);
    const result = events.at(-1)!;
    expect(result.event).toBe('result');
    const replies = (result.data.events as { type: string; data: any }[]).filter(
      (event) => event.type === 'conversation.reply',
    );
    expect(replies).toHaveLength(1);
    expect(replies[0]!.data.text).toMatch(
      /^You can return an item within 30 days of delivery\.\n\nSource: Returns and refunds › How do I return an item\?/,
    );
    const feed = (await request(`${engine.url}/v1/events?limit=1000`, { token: engine.apiKey })).body.events as {
      type: string;
      conversation_id: string;
    }[];
    expect(feed.filter((event) => event.conversation_id === id && event.type === 'conversation.reply')).toHaveLength(1);
  });

  it('holds back a streamed NOT_SURE: the customer gets the not-sure answer, never the mark', async () => {
    model.answer(() => ({ pieces: ['NOT_', 'SURE'] }));
    const id = await open();
    const events = await streamed(id, 'Do you sell gift cards for teachers?');
    expect(events.filter((event) => event.event === 'delta')).toEqual([]);
    expect(events.at(-1)!.data.events[0].data.text).toMatch(/not sure/);
  });

  it('streams the answer without its citation, which becomes the source line', async () => {
    model.answer(() => ({
      pieces: ['You can return an item ', 'within 30 days [', '1', ']', ' of delivery. [', '1]'],
    }));
    const id = await open();
    const events = await streamed(id, 'How do I return an item?');
    const deltas = events.filter((event) => event.event === 'delta').map((event) => event.data.text as string);
    expect(deltas.join('')).toBe('You can return an item within 30 days of delivery.');
    expect(events.at(-1)!.data.events[0].data.text).toMatch(
      /^You can return an item within 30 days of delivery\.\n\nSource: Returns and refunds › How do I return an item\?/,
    );
  });

  it('answers a streamed request for a conversation it cannot take with the usual error, not a stream', async () => {
    const response = await request(`${engine.url}/v1/conversations/cnv_nosuchconversation/messages`, {
      body: { text: 'hi' },
      headers: { accept: 'text/event-stream' },
      token: engine.apiKey,
    });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });

  it('counts the tokens the model used per account and month', async () => {
    const before = await usage();
    model.answer(() => ({
      body: completion(
        'Standard delivery takes 3 to 5 business days.',
        {},
        { prompt_tokens: 200, completion_tokens: 15 },
      ),
    }));
    const id = await open();
    await say(id, 'How long does delivery take?');
    const after = await usage();
    expect([after.prompt - before.prompt, after.completion - before.completion]).toEqual([200, 15]);
  });

  it('never asks the model for an account whose agent chose the retrieval brain', async () => {
    await engine.sql.query("UPDATE accounts SET brain = 'retrieval' WHERE id = $1", [engine.accountId]);
    try {
      const id = await open();
      const [reply] = await say(id, 'How do I return an item?');
      expect(reply!.data.text).toContain('within 30 days of delivery');
      expect(model.requests).toEqual([]);
    } finally {
      await engine.sql.query('UPDATE accounts SET brain = NULL WHERE id = $1', [engine.accountId]);
    }
  });

  async function usage(): Promise<{ prompt: number; completion: number }> {
    const [row] = await engine.sql.query<{ prompt: number; completion: number }>(
      'SELECT coalesce(sum(prompt_tokens), 0)::int AS prompt, coalesce(sum(completion_tokens), 0)::int AS completion FROM llm_usage WHERE account_id = $1',
      [engine.accountId],
    );
    return row!;
  }
});

describe('the LLM brain when the model is down', () => {
  const model = fakeModel();
  let engine: TestEngine;

  beforeAll(async () => {
    const baseUrl = await model.start();
    engine = await startEngine(undefined, undefined, { llm: { baseUrl, model: 'test-model', timeoutMs: 2_000 } });
  });
  afterAll(async () => {
    await engine?.stop();
    await model.stop();
  });

  it('answers from the retrieval brain meanwhile, after a few tries, and stops asking for a while once it failed three times in a row', async () => {
    model.answer(() => ({ status: 503, body: { error: { message: 'overloaded' } } }));
    const id = (
      await request(`${engine.url}/v1/conversations`, { token: engine.apiKey, body: { customer_ref: 'down-customer' } })
    ).body.id as string;
    const ask = async (text: string) =>
      (await request(`${engine.url}/v1/conversations/${id}/messages`, { token: engine.apiKey, body: { text } })).body
        .events[0].data.text as string;
    expect(await ask('How do I return an item?')).toContain('within 30 days of delivery');
    // One call and two tries again.
    expect(model.requests).toHaveLength(3);
    expect(await ask('How much does shipping cost?')).toContain('4.90 euros');
    expect(await ask('Do you ship abroad?')).toContain('Norway');
    expect(model.requests).toHaveLength(9);
    // The circuit is open: the next answer comes at once, without the model.
    expect(await ask('Which payment methods do you accept?')).toContain('PayPal');
    expect(model.requests).toHaveLength(9);
  });
});
