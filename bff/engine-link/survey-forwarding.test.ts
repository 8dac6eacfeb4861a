import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DRIVERS,
  request,
  startEngine,
  startStack,
  type Driver,
  type TestEngine,
  type TestStack,
} from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { engineIdOf, FAST_RETRIES, widgetClient } from '../../test/upstream-fixture.ts';

/**
 * Issue 15: a customer's answer to the satisfaction survey, taken by the real BFF (the widget's
 * route, the survey page), reaches the engine as `survey.response` through the relay, after the
 * close, also when the engine was away when the customer answered; the engine's report counts it.
 */
describe.each(DRIVERS)('survey answers from the BFF to the engine, on $name', (driver: Driver) => {
  let engine: TestEngine;
  let stack: TestStack;
  const widget = widgetClient(
    () => stack.url,
    () => stack.siteKey,
  );

  const surveyEvents = async (engineConversationId: string) =>
    (
      (await request(`${engine.url}/v1/events?types=survey.response&limit=1000`, { token: engine.apiKey })).body
        .events as { conversation_id: string; data: any }[]
    ).filter((event) => event.conversation_id === engineConversationId);
  const waiting = async () =>
    (
      await stack.bffSql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM surveys WHERE engine_forwarded_at IS DISTINCT FROM updated_at',
      )
    )[0]!.n;

  /** A visitor who asked a question, had it answered, and closed the conversation (the BFF asks for a rating). */
  async function closedConversation(question = 'How do I return an item?') {
    const token = await widget.visitor();
    const id = await widget.openConversation(token);
    if (question) expect((await widget.send(token, id, question, randomUUID())).status).toBe(201);
    await stack.bff.relay.settled();
    expect((await request(`${stack.url}/v1/widget/conversations/${id}/close`, { token, body: {} })).status).toBe(200);
    await stack.bff.relay.settled();
    return { token, id };
  }
  const answerInWidget = (token: string, id: string, rating: number, comment?: string) =>
    request(`${stack.url}/v1/widget/conversations/${id}/survey`, {
      token,
      body: { rating, ...(comment ? { comment } : {}) },
    });
  const answerOnPage = (uuid: string, rating: number, comment: string) =>
    request(`${stack.url}/survey/responses/${uuid}`, {
      method: 'POST',
      rawBody: new URLSearchParams({ rating: String(rating), comment }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  beforeAll(async () => {
    engine = await startEngine(driver);
    stack = await startStack(
      driver,
      { AI_API_URL: engine.url, AI_API_KEY: engine.apiKeys },
      { relayRetryDelaysMs: FAST_RETRIES, feedPollMs: 0 },
    );
  });
  // A test that fails while the engine is down must not leave it down for the next one.
  afterEach(() => engine.resume());
  afterAll(async () => {
    await stack?.stop();
    await engine?.stop();
  });

  it("sends the widget's survey answer to the engine after the close: survey.response is in the feed and the report's CSAT counts it", async () => {
    // The report covers this test's own minutes, so a day that ends while it runs changes nothing.
    const from = new Date().toISOString();
    const { token, id } = await closedConversation();
    const answered = await answerInWidget(token, id, 4, 'Quick and clear.');
    expect(answered.status).toBe(200);
    const engineId = await engineIdOf(stack, id);
    const [event] = await until(
      () => surveyEvents(engineId),
      (events) => events.length === 1,
      'survey.response in the feed',
    );
    const transcript = (
      await request(`${engine.url}/v1/conversations/${engineId}/transcript`, { token: engine.apiKey })
    ).body;
    expect(event!.data).toEqual({ rating: 4, comment: 'Quick and clear.', customer_ref: transcript.customer_ref });
    // In the feed after the close the survey followed.
    const feed = (await request(`${engine.url}/v1/events?limit=1000`, { token: engine.apiKey })).body.events as {
      type: string;
      conversation_id: string;
    }[];
    const types = feed.filter((entry) => entry.conversation_id === engineId).map((entry) => entry.type);
    expect(types.indexOf('survey.response')).toBeGreaterThan(types.indexOf('conversation.closed'));

    const to = new Date(Date.now() + 60_000).toISOString();
    const report = await request(
      `${engine.url}/v1/reports/summary?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
      { token: engine.apiKey },
    );
    expect(report.body.csat).toEqual({ responses: 1, average: 4 });
    // The BFF marks the answer forwarded once the engine's answer is back, just after the engine kept it.
    await until(waiting, (count) => count === 0, 'the answer to count as forwarded');
  });

  it(
    'keeps an answer given while the engine is away and sends it once the engine is back; a changed answer follows, the same one again adds nothing',
    { timeout: 30_000 },
    async () => {
      const { token, id } = await closedConversation('Do you ship abroad?');
      const engineId = await engineIdOf(stack, id);
      await engine.pause();
      const page = await answerOnPage(id, 5, 'Lovely.');
      expect(page.status).toBe(200);
      expect(page.body).toContain('Thank you');
      await until(
        () => stack.bff.relay.backlog,
        (backlog) => backlog >= 1,
        'the relay to schedule a retry',
      );
      expect(await waiting()).toBe(1);

      await engine.resume();
      await until(
        () => surveyEvents(engineId),
        (events) => events.length === 1,
        'the answer once the engine is back',
      );
      await until(waiting, (count) => count === 0, 'the answer to be marked as sent');

      expect((await answerInWidget(token, id, 2)).status).toBe(200);
      await until(
        () => surveyEvents(engineId),
        (events) => events.length === 2,
        'the changed answer',
      );
      expect((await answerInWidget(token, id, 2)).status).toBe(200);
      await until(waiting, (count) => count === 0, 'the repeated answer to be sent');
      await stack.bff.relay.settled();
      expect((await surveyEvents(engineId)).map((event) => event.data.rating)).toEqual([5, 2]);
      expect(
        (
          await request(`${engine.url}/v1/conversations/${engineId}/survey`, {
            token: engine.apiKey,
            body: { rating: 2 },
          })
        ).body,
      ).toMatchObject({ rating: 2, comment: null });
    },
  );

  it('answers a conversation the engine never had (closed before the customer wrote) without calling it', async () => {
    const { token, id } = await closedConversation('');
    expect((await answerInWidget(token, id, 3)).status).toBe(200);
    await until(waiting, (count) => count === 0, 'the answer to be settled');
    await stack.bff.relay.settled();
    expect(stack.bff.relay.backlog).toBe(0);
    const [row] = await stack.bffSql.query<{ engine_conversation_id: string | null }>(
      'SELECT engine_conversation_id FROM conversations WHERE uuid = $1',
      [id],
    );
    expect(row!.engine_conversation_id).toBeNull();
  });
});
