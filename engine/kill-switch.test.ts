import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetMessage } from '../shared/index.ts';
import {
  engineConversationOf,
  request,
  startEngine,
  startStack,
  type TestEngine,
  type TestStack,
} from '../test/stack.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../test/widget-client.ts';

/**
 * `PUT /v1/agent/kill-switch`, with a BFF in front of the engine as in production, so that what the
 * customer sees is tested too. The BFF reads the engine's feed when the test says (feedPollMs 0).
 */
describe('the kill switch', () => {
  let engine: TestEngine;
  let stack: TestStack;
  let otherAccountKey: string;

  beforeAll(async () => {
    engine = await startEngine();
    stack = await startStack(undefined, { AI_API_URL: engine.url, AI_API_KEY: engine.apiKeys }, { feedPollMs: 0 });
    otherAccountKey = (await engine.issueKey({ otherAccount: true })).key;
  });
  afterAll(async () => {
    await stack?.stop();
    await engine?.stop();
  });

  const killSwitch = (body: unknown, token = engine.apiKey) =>
    request(`${engine.url}/v1/agent/kill-switch`, { method: 'PUT', token, body });
  const me = async (token = engine.apiKey) => (await request(`${engine.url}/v1/me`, { token })).body;
  const conversation = async (id: string, token = engine.apiKey) =>
    (await request(`${engine.url}/v1/conversations/${id}/transcript`, { token })).body as { state: string };
  const handoversOf = async (id: string) =>
    (
      (await request(`${engine.url}/v1/events?limit=1000&types=conversation.handover`, { token: engine.apiKey })).body
        .events as { conversation_id: string; data: { reason: string; requested_by: string } }[]
    ).filter((event) => event.conversation_id === id);

  /** A visitor of the stack's widget who asked something; the engine's id of their conversation. */
  async function visitorAsks(text: string) {
    const { token } = await newVisitor(stack.url);
    const { id: uuid } = await openWidgetConversation(stack.url, token);
    expect((await sendWidgetMessage(stack.url, token, uuid, text, `m-${uuid}`)).status).toBe(201);
    const engineId = await engineConversationOf(stack, uuid);
    const messages = async () => {
      await stack.bff.feed.catchUp();
      return (await request(`${stack.url}/v1/widget/conversations/${uuid}/messages`, { token })).body
        .messages as WidgetMessage[];
    };
    return {
      token,
      uuid,
      engineId,
      messages,
      writes: (again: string) => sendWidgetMessage(stack.url, token, uuid, again, `m-${uuid}-${again.length}`),
    };
  }

  it('switches the AI off: every conversation it has goes to people at once, the customer sees a notice, and GET /v1/me shows it', async () => {
    const first = await visitorAsks('How do I return an item?');
    const second = await visitorAsks('Do you ship abroad?');
    const withPeople = await visitorAsks('I want to talk to a person');
    const liveId = (
      await request(`${engine.url}/v1/conversations`, {
        token: engine.liveApiKey,
        body: { customer_ref: 'live-customer' },
      })
    ).body.id as string;
    expect((await me()).agent.kill_switch).toEqual({ enabled: false, reason: null, since: null });

    const response = await killSwitch({ enabled: true, reason: 'The model gives wrong refund answers' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      enabled: true,
      reason: 'The model gives wrong refund answers',
      since: expect.any(String),
      handed_over: 2,
    });
    for (const { engineId } of [first, second]) {
      expect((await conversation(engineId)).state).toBe('human');
      expect(await handoversOf(engineId)).toEqual([
        expect.objectContaining({ data: { type: 'handover', reason: 'kill_switch', requested_by: 'ai' } }),
      ]);
    }
    expect(await handoversOf(withPeople.engineId)).toHaveLength(1);
    const notices = (await first.messages()).filter((message) => message.author === 'system');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toMatch(/person/);

    expect((await me()).agent.kill_switch).toEqual({
      enabled: true,
      reason: 'The model gives wrong refund answers',
      since: response.body.since,
    });
    // The live AI is another environment's: it still answers.
    expect((await me(engine.liveApiKey)).agent.kill_switch.enabled).toBe(false);
    expect((await conversation(liveId, engine.liveApiKey)).state).toBe('ai');

    // Switched off again while off: it stays off since the first time, with the new reason.
    const again = await killSwitch({ enabled: true, reason: 'Still investigating' });
    expect(again.body).toEqual({
      enabled: true,
      reason: 'Still investigating',
      since: response.body.since,
      handed_over: 0,
    });
  });

  it('while it is on, a new conversation and every new message go to people, unanswered', async () => {
    await killSwitch({ enabled: true });
    const customer = await visitorAsks('How do I return an item?');
    expect((await conversation(customer.engineId)).state).toBe('human');
    expect((await handoversOf(customer.engineId))[0]!.data.reason).toBe('kill_switch');
    expect((await customer.writes('Hello? Anyone?')).status).toBe(201);
    await stack.bff.relay.settled();
    const authors = (await customer.messages()).map((message) => message.author);
    expect(authors).not.toContain('ai');
    expect(authors.filter((author) => author === 'system')).toHaveLength(1);

    const direct = await request(`${engine.url}/v1/conversations`, {
      token: engine.apiKey,
      body: { customer_ref: 'api-customer' },
    });
    expect(direct.body.state).toBe('human');
    const answer = await request(`${engine.url}/v1/conversations/${direct.body.id}/messages`, {
      token: engine.apiKey,
      body: { text: 'How do I return an item?' },
    });
    expect(answer.body.events).toEqual([]);
  });

  it('lets no one hand a conversation back to the AI while it is on', async () => {
    await killSwitch({ enabled: true });
    const customer = await visitorAsks('Do you ship abroad?');
    const refused = await request(`${engine.url}/v1/conversations/${customer.engineId}/handback`, {
      token: engine.apiKey,
      body: {},
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('invalid_state');
    expect((await conversation(customer.engineId)).state).toBe('human');
  });

  it("turned off, it hands nothing back (people do that), and new conversations are the AI's again", async () => {
    await killSwitch({ enabled: true });
    const held = await visitorAsks('How do I return an item?');
    const response = await killSwitch({ enabled: false, reason: 'ignored when it goes off' });
    expect(response.body).toEqual({ enabled: false, reason: null, since: null, handed_over: 0 });
    expect((await me()).agent.kill_switch).toEqual({ enabled: false, reason: null, since: null });
    expect((await conversation(held.engineId)).state).toBe('human');

    const fresh = await visitorAsks('How do I return an item?');
    expect((await conversation(fresh.engineId)).state).toBe('ai');
    expect(
      (await fresh.messages()).some((message) => message.author === 'ai' && message.text.includes('30 days')),
    ).toBe(true);
    expect(
      (await request(`${engine.url}/v1/conversations/${held.engineId}/handback`, { token: engine.apiKey, body: {} }))
        .status,
    ).toBe(200);
  });

  it('refuses a bad body with 400 and changes nothing', async () => {
    await killSwitch({ enabled: false });
    for (const body of [
      {},
      { enabled: 'yes' },
      { enabled: true, reason: '' },
      { enabled: true, reason: 'x'.repeat(501) },
      { enabled: true, extra: 1 },
      null,
    ]) {
      const response = await killSwitch(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
    }
    expect((await me()).agent.kill_switch.enabled).toBe(false);
  });

  it("refuses a request without a valid API key; another account's key switches off only its own AI", async () => {
    await killSwitch({ enabled: false });
    for (const token of [undefined, 'service_test_' + 'k'.repeat(32), 'pk_test_nope']) {
      const response = await request(`${engine.url}/v1/agent/kill-switch`, {
        method: 'PUT',
        ...(token ? { token } : {}),
        body: { enabled: true },
      });
      expect(response.status).toBe(401);
    }
    expect((await killSwitch({ enabled: true, reason: 'their incident' }, otherAccountKey)).body.enabled).toBe(true);
    expect((await me()).agent.kill_switch.enabled).toBe(false);
    const customer = await visitorAsks('How do I return an item?');
    expect((await conversation(customer.engineId)).state).toBe('ai');
  });

  it('says which brain answers: the retrieval brain on an engine without a model, whatever was chosen', async () => {
    const chosen = await request(`${engine.url}/v1/agent`, {
      method: 'PATCH',
      token: engine.apiKey,
      body: { brain: 'llm' },
    });
    expect(chosen.body).toMatchObject({ brain: 'llm', brain_in_use: 'retrieval' });
    await request(`${engine.url}/v1/agent`, { method: 'PATCH', token: engine.apiKey, body: { brain: null } });
  });
});
