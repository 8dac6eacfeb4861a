import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';

/**
 * Issue 33: a forget finds the idempotency records of the customer whatever the caller wrote in
 * the Idempotency-Key (here their e-mail address): each record is tied to the customer or the
 * conversation it was about, and `POST /v1/customers/{ref}/forget` deletes them.
 */
describe.each(DRIVERS)('forgetting a customer erases their idempotency records on $name', (driver) => {
  let engine: TestEngine;
  const api = (path: string, body: unknown, key?: string) =>
    request(engine.url + path, {
      token: engine.apiKey,
      body,
      ...(key ? { headers: { 'idempotency-key': key } } : {}),
    });
  const keysHolding = async (text: string) =>
    (
      await engine.sql.query<{ idempotency_key: string }>(
        'SELECT idempotency_key FROM idempotency_keys WHERE strpos(idempotency_key, $1) > 0 ORDER BY idempotency_key',
        [text],
      )
    ).map((row) => row.idempotency_key);

  beforeAll(async () => {
    engine = await startEngine(driver);
  });
  afterAll(() => engine?.stop());

  it('deletes records whose key holds the e-mail address, and leaves another customer’s', async () => {
    const opened = await api('/v1/conversations', { customer_ref: 'cust-ada' }, 'open:ada@example.com');
    expect(opened.status).toBe(201);
    const sent = await api(
      `/v1/conversations/${opened.body.id}/messages`,
      { text: 'Hello', message_id: 'm-1' },
      'send:ada@example.com:1',
    );
    expect(sent.status).toBeLessThan(300);
    // A refused request is kept too (a 4xx), and tied by its path.
    const refused = await api(`/v1/conversations/${opened.body.id}/messages`, { text: '' }, 'send:ada@example.com:2');
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(await api('/v1/conversations', { customer_ref: 'cust-bo' }, 'open:bo@example.com')).toMatchObject({
      status: 201,
    });
    expect(await keysHolding('ada@example.com')).toHaveLength(3);

    const forgotten = await api('/v1/customers/cust-ada/forget', {});
    expect(forgotten.status).toBe(202);
    expect(await keysHolding('ada@example.com')).toEqual([]);
    expect(await keysHolding('bo@example.com')).toEqual(['open:bo@example.com']);
  });
});
