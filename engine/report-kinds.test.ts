import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';
import { until } from '../test/until.ts';

/**
 * Issue 29, the monitors and interviews reports: findings per monitor and day, and each answer of
 * the interview responses that ended in the period, as CSV and JSON, on a clock the test moves.
 */
describe.each(DRIVERS)('monitors and interviews reports on $name', (driver) => {
  let engine: TestEngine;
  let clock = new Date('2026-06-02T09:00:00Z');
  const at = (iso: string) => (clock = new Date(iso));
  const api = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(engine.url + path, { token: engine.apiKey, ...options });
  const say = async (id: string, text: string) =>
    expect((await api(`/v1/conversations/${id}/messages`, { body: { text } })).status).toBe(200);
  const saying = async (customer_ref: string, text: string) => {
    const id = (await api('/v1/conversations', { body: { customer_ref } })).body.id as string;
    await say(id, text);
    return id;
  };
  /** Asks for a report, waits until it is gathered, and gives its file's text. */
  const report = async (kind: string, format: 'csv' | 'json', token = engine.apiKey) => {
    const asked = await request(`${engine.url}/v1/reports`, {
      token,
      body: { kind, format, from: '2026-06-01', to: '2026-06-30' },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    const done = await until(
      () => request(`${engine.url}/v1/reports/${asked.body.id}`, { token }),
      (response) => response.body.status !== 'pending' && response.body.status !== 'running',
      `report ${asked.body.id}`,
    );
    expect(done.body.status).toBe('ready');
    const file = await fetch(`${engine.url}/v1/reports/${asked.body.id}/content`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(file.headers.get('content-disposition')).toContain(`${kind}-2026-06-01-${asked.body.id}.${format}`);
    return { rows: done.body.rows as number, text: await file.text() };
  };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    engine = await startEngine(driver, () => clock);
    const legal = { name: 'Chargeback or lawyer', criteria: { keywords: ['lawyer', 'chargeback'] }, severity: 'high' };
    ids['legal'] = (await api('/v1/monitors', { body: legal })).body.id;
    const refunds = {
      name: 'Refunds',
      criteria: { keywords: ['refund'] },
      scope: 'customer_messages',
      severity: 'low',
    };
    ids['refunds'] = (await api('/v1/monitors', { body: refunds })).body.id;

    // Two legal findings on 3 June (two conversations), one refund finding and one legal on 4 June.
    at('2026-06-03T10:00:00Z');
    await saying('lawyer-a', 'I will call my lawyer');
    await saying('lawyer-b', 'A chargeback is next');
    await engine.engine.monitors.drain();
    at('2026-06-04T11:00:00Z');
    const both = await saying('refund-c', 'I want a refund');
    await say(both, 'or my lawyer hears of it');
    await engine.engine.monitors.drain();

    // An interview answered in full (one skip, one answer that looks like a formula) and one stopped at once.
    const interview = {
      title: 'Delivery feedback',
      intro: 'Two short questions.',
      questions: [
        { id: 'satisfaction', text: 'How happy were you?', choices: ['Happy', 'Unhappy'] },
        { id: 'improve', text: 'What could we do better?' },
      ],
      closing: 'Thank you!',
    };
    ids['interview'] = (await api('/v1/interviews', { body: interview })).body.id;
    at('2026-06-05T12:00:00Z');
    const start = async (customer_ref: string): Promise<string> =>
      (await api(`/v1/interviews/${ids['interview']}/sessions`, { body: { customer_ref } })).body.conversation.id;
    const answered = (ids['answered'] = await start('interviewed-a'));
    await say(answered, 'skip');
    await say(answered, '=1+2 faster delivery');
    const stopped = (ids['stopped'] = await start('interviewed-b'));
    await say(stopped, 'stop');
  });
  afterAll(async () => {
    await engine?.engine.monitors.stop();
    await engine?.stop();
  });

  it('counts findings per monitor, severity and UTC day, without the excerpts, as CSV', async () => {
    const { rows, text } = await report('monitors', 'csv');
    expect(rows).toBe(3);
    expect(text.split('\r\n')).toEqual([
      'day,monitor_id,monitor_name,severity,findings,conversations',
      `2026-06-03,${ids['legal']},Chargeback or lawyer,high,2,2`,
      `2026-06-04,${ids['legal']},Chargeback or lawyer,high,1,1`,
      `2026-06-04,${ids['refunds']},Refunds,low,1,1`,
      '',
    ]);
    expect(text).not.toContain('lawyer hears');
  });

  it('gives the monitors report as JSON', async () => {
    const { text } = await report('monitors', 'json');
    expect(JSON.parse(text).rows[0]).toEqual({
      day: '2026-06-03',
      monitor_id: ids['legal'],
      monitor_name: 'Chargeback or lawyer',
      severity: 'high',
      findings: 2,
      conversations: 2,
    });
  });

  it('lists each answer of the interview responses with the question and skips, opening a formula with an apostrophe', async () => {
    const { rows, text } = await report('interviews', 'csv');
    expect(rows).toBe(3);
    const ended = '2026-06-05T12:00:00.000Z';
    const response = `${ids['interview']},Delivery feedback,${ids['answered']},interviewed-a,completed,${ended}`;
    expect(text.split('\r\n')).toEqual([
      'interview_id,interview_title,conversation_id,customer_ref,outcome,ended_at,question_id,question,answer,skipped',
      `${response},satisfaction,How happy were you?,,true`,
      `${response},improve,What could we do better?,'=1+2 faster delivery,false`,
      `${ids['interview']},Delivery feedback,${ids['stopped']},interviewed-b,stopped,${ended},,,,`,
      '',
    ]);
  });

  it('gives the interviews report as JSON with the answers as the customer wrote them', async () => {
    const { text } = await report('interviews', 'json');
    const answered = JSON.parse(text).rows.filter((row: { answer: string | null }) => row.answer);
    expect(answered).toEqual([
      expect.objectContaining({ question_id: 'improve', answer: '=1+2 faster delivery', skipped: false }),
    ]);
  });

  it("holds none of another account's findings or interviews", async () => {
    const other = await engine.issueKey({ otherAccount: true });
    expect((await report('monitors', 'json', other.key)).rows).toBe(0);
    expect((await report('interviews', 'csv', other.key)).rows).toBe(0);
  });
});
