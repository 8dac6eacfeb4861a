import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startEngine, type TestEngine } from '../test/stack.ts';

/**
 * Issue 26: a tenant's sandbox key defined an action with 20 slow-but-allowed patterns such as
 * `(?:\d|\d\d)*x`; then each message of digits held the engine, every account's requests with it,
 * for about 4.4 s (a 200 ms deadline per pattern), and redefining the action with new patterns
 * got round "give up a pattern after two time-outs". Patterns now run on RE2, in linear time.
 */
describe('an action whose patterns backtrack', () => {
  let engine: TestEngine;
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  /** An action of 20 required inputs, each found by `pattern` ending in its own letter (so that no two are the same pattern). */
  const slowAction = (pattern: (letter: string) => string) => ({
    description: 'Look up a parcel',
    parameters: {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 20 }, (_, index) => [
          `code_${index}`,
          { type: 'string', description: 'A code', pattern: pattern(String.fromCharCode(97 + index)) },
        ]),
      ),
      required: Array.from({ length: 20 }, (_, index) => `code_${index}`),
    },
    triggers: [['parcel']],
  });

  beforeAll(async () => {
    engine = await startEngine();
  });
  afterAll(() => engine?.stop());

  /** The answer to `text` in a new conversation, how long it took, and the slowest answer to other requests made meanwhile. */
  async function sendWhileProbing(text: string) {
    const opened = await api('/v1/conversations', { body: { customer_ref: 'digits-customer' } });
    const started = performance.now();
    let answered = false;
    const message = api(`/v1/conversations/${opened.body.id as string}/messages`, { body: { text } }).finally(
      () => (answered = true),
    );
    let slowestProbeMs = 0;
    while (!answered) {
      const probeStarted = performance.now();
      expect((await request(`${engine.url}/v1/openapi.json`)).status).toBe(200);
      slowestProbeMs = Math.max(slowestProbeMs, performance.now() - probeStarted);
    }
    return { response: await message, tookMs: performance.now() - started, slowestProbeMs };
  }

  it('answers a message of digits at once with 20 such patterns, again after the action is redefined with new ones', async () => {
    for (const last of ['x', 'y']) {
      const defined = await api('/v1/actions/find_parcel', {
        method: 'PUT',
        body: slowAction((letter) => `(?:\\d|\\d\\d)*${last}${letter}`),
      });
      expect(defined.status, JSON.stringify(defined.body)).toBeLessThan(300);
      const { response, tookMs, slowestProbeMs } = await sendWhileProbing(`parcel ${'1'.repeat(100_000)}`);
      expect(response.status).toBe(200);
      // None is found, so the AI asks for the first.
      expect(response.body.events[0].data.text).toBe('What is the code 0?');
      // Bounds far above what it takes now (tens of ms) and below what it took before (4 s held, by 20 deadlines of 200 ms).
      expect(tookMs).toBeLessThan(3_000);
      expect(slowestProbeMs).toBeLessThan(2_000);
    }
  });

  it('still finds the value when the message has it', async () => {
    await api('/v1/actions/find_parcel', {
      method: 'PUT',
      body: slowAction((letter) => `\\b((?:\\d|\\d\\d)+${letter})\\b`),
    });
    const opened = await api('/v1/conversations', { body: { customer_ref: 'digits-customer' } });
    const letters = Array.from({ length: 20 }, (_, index) => `12${String.fromCharCode(97 + index)}`).join(' ');
    const response = await api(`/v1/conversations/${opened.body.id as string}/messages`, {
      body: { text: `parcel ${letters}` },
    });
    const [request_] = response.body.events;
    expect(request_).toMatchObject({ type: 'conversation.action_request', data: { action: 'find_parcel' } });
    expect(request_.data.inputs).toMatchObject({ code_0: '12a', code_19: '12t' });
  });

  it.each([
    ['a lookahead', '(?=\\d{5})(\\d+)'],
    ['a lookbehind', '(?<=#)(\\d+)'],
    ['a backreference', '(\\d)\\1'],
  ])(
    'refuses a pattern with %s when the action is defined (400 invalid_request, naming the field), and stores nothing',
    async (_, pattern) => {
      const body = {
        description: 'Look up a parcel',
        parameters: { type: 'object', properties: { code: { type: 'string', description: 'A code', pattern } } },
      };
      const response = await api('/v1/actions/lookaround_parcel', { method: 'PUT', body });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
      expect(response.body.error.message).toMatch(
        /^The request body is not valid: parameters\.properties\.code\.pattern: RE2 cannot run this pattern: .+ \(the engine matches patterns with RE2, in linear time: no lookahead, lookbehind or backreference/,
      );
      expect((await api('/v1/actions/lookaround_parcel')).status).toBe(404);
    },
  );
});
