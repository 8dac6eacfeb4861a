import { describe, expect, it } from 'vitest';
import { EngineClient } from './engine-client.ts';

/**
 * The feed as another engine version may send it: the page is the engine's shape, given by a
 * `fetch` of the test's own (the real engine sends no malformed event, so one stands in here).
 */
describe("reading a page of the engine's feed", () => {
  const event = (id: string, fields: object) => ({ id, created_at: '2026-11-23T10:00:00.000Z', environment: 'sandbox', ...fields });
  const page = {
    events: [
      event('evt_report', { type: 'report.ready', conversation_id: null, data: { report_id: 'rep_1' } }),
      event('evt_future', { type: 'conversation.translated', conversation_id: 'cnv_1', data: { text: 'Hallo' } }),
      event('evt_broken', { type: 'conversation.reply', conversation_id: null, data: { type: 'reply' } }),
      event('evt_reply', { type: 'conversation.reply', conversation_id: 'cnv_1', data: { type: 'reply', reply_id: 'rpl_1', format: 'chat', text: 'Hi' } }),
    ],
    next: 'evt_reply',
    has_more: false,
  };
  const engine = new EngineClient({
    baseUrl: 'http://engine.test',
    apiKey: 'service_test_feed',
    fetch: async () => new Response(JSON.stringify(page), { status: 200, headers: { 'content-type': 'application/json' } }),
  });

  it('keeps the events it knows (one of no conversation too), leaves out the unknown and malformed ones, and still moves on to the next cursor', async () => {
    const read = await engine.events(undefined);
    expect(read.events.map((item) => item.id)).toEqual(['evt_report', 'evt_reply']);
    expect(read.next).toBe('evt_reply');
  });
});
