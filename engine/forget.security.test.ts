import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mentions } from '../test/every-row.ts';
import { pngOf } from '../test/media-fixtures.ts';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';

/**
 * A forgotten customer's conversation stays only as counts: nothing that carries words or files may
 * be added to it afterwards (a survey answer the BFF still had to forward, a photo uploaded late),
 * or the erasure would not be the end of what the engine holds of them.
 */
describe.each(DRIVERS.slice(0, 1))('nothing new reaches a forgotten conversation on $name', (driver) => {
  let engine: TestEngine;
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });

  beforeAll(async () => {
    engine = await startEngine(driver);
  });
  afterAll(async () => {
    await engine?.stop();
  });

  async function forgottenConversation(ref: string): Promise<string> {
    const opened = await api('/v1/conversations', { body: { customer_ref: ref } });
    expect(opened.status).toBe(201);
    const id = opened.body.id as string;
    expect((await api(`/v1/conversations/${id}/messages`, { body: { text: 'Where is my parcel?' } })).status).toBe(200);
    expect((await api(`/v1/customers/${encodeURIComponent(ref)}/forget`, { method: 'POST' })).status).toBe(202);
    return id;
  }

  it('refuses a survey answer for a forgotten conversation (404), keeping neither its comment nor an event', async () => {
    const id = await forgottenConversation('cust-late-survey');
    const response = await api(`/v1/conversations/${id}/survey`, {
      body: { rating: 1, comment: 'Quetzalcoatl parcel never came' },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(404);
    expect(response.body.error.code).toBe('not_found');
    expect(await mentions(engine.sql, ['Quetzalcoatl parcel'])).toEqual([]);
  });

  it('refuses a medium for a forgotten conversation (404), keeping no bytes', async () => {
    const id = await forgottenConversation('cust-late-photo');
    const form = new FormData();
    form.append('conversation_id', id);
    form.append('file', new Blob([new Uint8Array(pngOf(32, 32))], { type: 'image/png' }), 'late.png');
    const response = await fetch(`${engine.url}/v1/media`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${engine.apiKey}` },
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
    const [{ count } = { count: -1 }] = await engine.sql.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM media WHERE conversation_id = $1',
      [id],
    );
    expect(count).toBe(0);
  });
});
