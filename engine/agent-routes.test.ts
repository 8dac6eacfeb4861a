import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { completion, fakeModel } from '../test/fake-llm.ts';
import { shopKnowledge } from '../test/shop-fixtures.ts';
import { request, startEngine, type TestEngine } from '../test/stack.ts';
import { voiceOf } from './brain/agent-profile.ts';
import { NOT_SURE_MARK } from './brain/llm-brain.ts';
import { addKnowledgeDocument } from './index.ts';

/**
 * `GET/PATCH /v1/agent`: the agent customers meet, and that the brain honours what it says. The
 * engine has a model configured; the model cannot run here, so a small OpenAI-compatible server
 * written for the tests stands in for it (test/fake-llm.ts). Each behaviour is tried on an account
 * of its own, so that one test's agent never changes another's.
 */
describe('the agent of an engine account', () => {
  const model = fakeModel();
  let engine: TestEngine;

  beforeAll(async () => {
    const baseUrl = await model.start();
    engine = await startEngine(undefined, undefined, { llm: { baseUrl, model: 'test-model' } });
  });
  afterAll(async () => {
    await engine?.stop();
    await model.stop();
  });
  beforeEach(() => {
    model.requests.length = 0;
    model.answer(() => ({ body: completion('You can send it back within 30 days.') }));
  });

  /** A new account (with the shop's articles when asked) and its sandbox key. */
  const newAccount = async (knowledge = false) => {
    const { key, accountId } = await engine.issueKey({ otherAccount: true });
    if (knowledge)
      for (const document of await shopKnowledge())
        await addKnowledgeDocument(engine.sql, accountId, { ...document, approved: true });
    return key;
  };
  const agent = (token: string, body?: unknown) =>
    request(`${engine.url}/v1/agent`, { token, ...(body === undefined ? {} : { method: 'PATCH', body }) });
  const open = async (token: string) =>
    (await request(`${engine.url}/v1/conversations`, { token, body: { customer_ref: 'agent-customer' } })).body
      .id as string;
  const say = async (token: string, id: string, text: string, locale?: string) => {
    const response = await request(`${engine.url}/v1/conversations/${id}/messages`, {
      token,
      body: { text, ...(locale ? { locale } : {}) },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.events as { type: string; data: { text?: string; reason?: string } }[];
  };

  describe('GET and PATCH /v1/agent', () => {
    it('shows the defaults of an agent nobody changed', async () => {
      const response = await agent(await newAccount());
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        environment: 'sandbox',
        name: 'Assistant',
        greeting: {},
        tone: 'friendly',
        handover: { after_failed_answers: null, keywords: [] },
        brain: null,
        brain_in_use: 'llm',
        kill_switch: { enabled: false, reason: null, since: null },
        updated_at: null,
      });
    });

    it('changes only the fields sent, merging greetings by language (null removes one) and handover rules by field', async () => {
      const key = await newAccount();
      const first = await agent(key, {
        name: 'Ava',
        tone: 'formal',
        greeting: { en: 'Good day, I am Ava.', de: 'Guten Tag, ich bin Ava.' },
      });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        name: 'Ava',
        tone: 'formal',
        greeting: { en: 'Good day, I am Ava.', de: 'Guten Tag, ich bin Ava.' },
        updated_at: expect.any(String),
      });
      await agent(key, {
        greeting: { de: null, 'pt-BR': 'Bom dia!' },
        handover: { keywords: ['lawyer', 'Lawyer', 'chargeback'] },
      });
      await agent(key, { handover: { after_failed_answers: 3 } });
      const now = (await agent(key)).body;
      expect(now).toMatchObject({
        name: 'Ava',
        tone: 'formal',
        greeting: { en: 'Good day, I am Ava.', 'pt-br': 'Bom dia!' },
        handover: { after_failed_answers: 3, keywords: ['lawyer', 'chargeback'] },
        brain: null,
      });
      expect(Object.keys(now.greeting)).not.toContain('de');
      expect((await agent(key, { handover: { after_failed_answers: null } })).body.handover).toEqual({
        after_failed_answers: null,
        keywords: ['lawyer', 'chargeback'],
      });
    });

    it("keeps the sandbox's agent and the live agent apart: a test key's change never reaches live customers", async () => {
      await agent(engine.apiKey, { name: 'Sandbox Sam', tone: 'neutral' });
      const live = await agent(engine.liveApiKey);
      expect(live.body).toMatchObject({ environment: 'live', name: 'Assistant', tone: 'friendly' });
      expect((await agent(engine.apiKey)).body).toMatchObject({ environment: 'sandbox', name: 'Sandbox Sam' });
      await agent(engine.apiKey, { name: 'Assistant', tone: 'friendly' });
    });

    it('refuses a bad change with 400 invalid_request and changes nothing', async () => {
      const key = await newAccount();
      await agent(key, { name: 'Ava' });
      const before = (await agent(key)).body;
      const bad = [
        { tone: 'angry' },
        { name: '' },
        { name: 'x'.repeat(81) },
        { greeting: { 'not a tag': 'Hi' } },
        { greeting: { en: '' } },
        {
          greeting: Object.fromEntries(
            Array.from({ length: 51 }, (_, index) => [
              `x${String.fromCharCode(97 + (index % 26))}${String.fromCharCode(97 + Math.floor(index / 26))}`,
              'Hi',
            ]),
          ),
        },
        { handover: { after_failed_answers: 0 } },
        { handover: { after_failed_answers: 11 } },
        { handover: { keywords: ['a'] } },
        { handover: { keywords: Array.from({ length: 51 }, (_, index) => `word${index}`) } },
        { handover: { other: true } },
        { brain: 'gpt' },
        { admin: true },
        [],
      ];
      for (const body of bad) {
        const response = await agent(key, body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.body.error.code).toBe('invalid_request');
      }
      expect(
        (await request(`${engine.url}/v1/agent`, { token: key, method: 'PATCH', rawBody: '{"name":' })).status,
      ).toBe(400);
      expect((await agent(key)).body).toEqual(before);
    });

    it("refuses a request without a valid API key; another account's key reaches only its own agent", async () => {
      const key = await newAccount();
      await agent(key, { name: 'Private Pia' });
      for (const token of [undefined, 'service_test_' + 'q'.repeat(32), 'pk_test_nope']) {
        for (const method of ['GET', 'PATCH']) {
          const response = await request(`${engine.url}/v1/agent`, {
            method,
            ...(token ? { token } : {}),
            ...(method === 'PATCH' ? { body: { name: 'Mallory' } } : {}),
          });
          expect(response.status).toBe(401);
          expect(response.body.error.code).toBe('unauthorized');
        }
      }
      const other = await newAccount();
      expect((await agent(other)).body.name).toBe('Assistant');
      await agent(other, { name: 'Mallory' });
      expect((await agent(key)).body.name).toBe('Private Pia');
    });
  });

  describe('what the brain does with it', () => {
    it("greets in the customer's language before the AI's first words, once per conversation", async () => {
      const key = await newAccount(true);
      await agent(key, {
        brain: 'retrieval',
        greeting: { en: 'Hi, I am Ava from the Zebra shop.', de: 'Hallo, ich bin Ava vom Zebra-Laden.' },
      });
      const id = await open(key);
      const [greeting, answer] = await say(key, id, 'How do I return an item?');
      expect(greeting).toMatchObject({
        type: 'conversation.reply',
        data: { text: 'Hi, I am Ava from the Zebra shop.' },
      });
      expect(answer!.data.text).toContain('within 30 days');
      expect(
        (await say(key, id, 'Which payment methods do you accept?')).filter((event) =>
          event.data.text?.includes('Zebra'),
        ),
      ).toEqual([]);

      const german = await open(key);
      expect((await say(key, german, 'Wie kann ich etwas zurückschicken?', 'de-AT'))[0]!.data.text).toBe(
        'Hallo, ich bin Ava vom Zebra-Laden.',
      );
      // No greeting in French was written: no greeting rather than one in another language.
      const french = await open(key);
      expect(
        (await say(key, french, 'Comment retourner un article ?', 'fr')).map((event) => event.data.text),
      ).not.toContain('Hi, I am Ava from the Zebra shop.');
    });

    it("speaks in the tone chosen: the brain's own sentences and the model's instructions, with the agent's name", async () => {
      const key = await newAccount(true);
      await agent(key, { name: 'Ava', tone: 'formal' });
      const id = await open(key);
      await say(key, id, 'How do I return an item?');
      const system = model.requests[0]!.messages[0]!.content!;
      expect(system).toContain('You are Ava,');
      expect(system).toContain(voiceOf('formal').prompt);
      expect(system).not.toContain(voiceOf('friendly').prompt);
      const [handover] = await say(key, id, 'I want to talk to a person');
      expect(handover!.data.text).toBe(voiceOf('formal').handover);

      await agent(key, { tone: 'neutral' });
      const other = await open(key);
      expect((await say(key, other, 'Can I speak to a human?'))[0]!.data.text).toBe(voiceOf('neutral').handover);
    });

    it('hands a message with a handover keyword to people at once, without asking the model', async () => {
      const key = await newAccount(true);
      await agent(key, { handover: { keywords: ['lawyer', '返金'] } });
      const id = await open(key);
      const events = await say(key, id, 'My Lawyer will hear about how do I return an item');
      expect(events.map((event) => event.type)).toEqual(['conversation.reply', 'conversation.handover']);
      expect(events[1]!.data.reason).toBe('keyword');
      expect(model.requests).toHaveLength(0);
      // A keyword counts as a word ("lawyerly" is not "lawyer"); in Japanese, inside a sentence.
      const other = await open(key);
      expect(
        (await say(key, other, 'A lawyerly question: how do I return an item?')).map((event) => event.type),
      ).toEqual(['conversation.reply']);
      const japanese = await open(key);
      expect((await say(key, japanese, '返金してください', 'ja')).map((event) => event.type)).toContain(
        'conversation.handover',
      );
    });

    it('hands over instead of the n-th "not sure" answer in a row; an answer in between starts the count again', async () => {
      const key = await newAccount(true);
      await agent(key, { handover: { after_failed_answers: 2 } });
      model.answer(() => ({ body: completion(NOT_SURE_MARK) }));
      const id = await open(key);
      expect((await say(key, id, 'How do I return an item?')).map((event) => event.type)).toEqual([
        'conversation.reply',
      ]);
      model.answer(() => ({ body: completion('You can send it back within 30 days.') }));
      expect((await say(key, id, 'How do I return an item?'))[0]!.data.text).toContain('within 30 days');
      model.answer(() => ({ body: completion(NOT_SURE_MARK) }));
      expect((await say(key, id, 'How do I return an item?')).map((event) => event.type)).toEqual([
        'conversation.reply',
      ]);
      const events = await say(key, id, 'How do I return an item?');
      expect(events.map((event) => event.type)).toEqual(['conversation.reply', 'conversation.handover']);
      expect(events[0]!.data.text).toBe(voiceOf('friendly').noAnswerHandover);
      expect(events[1]!.data.reason).toBe('no_answer');
    });

    it('answers with the brain chosen: retrieval keeps the model out, llm and the default let it in', async () => {
      const key = await newAccount(true);
      const retrieval = await agent(key, { brain: 'retrieval' });
      expect(retrieval.body).toMatchObject({ brain: 'retrieval', brain_in_use: 'retrieval' });
      const id = await open(key);
      expect((await say(key, id, 'How do I return an item?'))[0]!.data.text).toContain('Source: Returns and refunds');
      expect(model.requests).toHaveLength(0);
      for (const brain of ['llm', null]) {
        expect((await agent(key, { brain })).body).toMatchObject({ brain, brain_in_use: 'llm' });
        await say(key, await open(key), 'How do I return an item?');
        expect(model.requests).toHaveLength(1);
        model.requests.length = 0;
      }
    });
  });
});
