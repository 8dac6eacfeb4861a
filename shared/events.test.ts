import { describe, expect, it } from 'vitest';
import { EngineEvent, readEvents } from './events.ts';

const base = { id: 'evt_1', created_at: '2026-01-01T00:00:00.000Z', conversation_id: 'cnv_1' };
const reply = (data: Record<string, unknown>) => ({
  ...base,
  type: 'conversation.reply',
  data: { type: 'reply', reply_id: 'rpl_1', format: 'chat', ...data },
});

describe('reading engine events', () => {
  it('narrows on type: a reply gives its text, choices and card', () => {
    const choices = [{ label: 'Returns', value: 'How do I return an item?' }];
    const card = { title: 'Order 1', fields: [{ label: 'Status', value: 'shipped' }] };
    const [event] = readEvents([reply({ text: 'Hi', choices, card })]);
    expect(event?.type).toBe('conversation.reply');
    if (event?.type !== 'conversation.reply') throw new Error('not a reply');
    expect(event.data).toEqual({ type: 'reply', reply_id: 'rpl_1', format: 'chat', text: 'Hi', choices, card });
  });

  it('keeps the text of a reply whose choices or card have another shape', () => {
    const [event] = readEvents([reply({ text: 'Hi', choices: 'nope', card: { title: 5 } })]);
    expect(event?.data).toEqual({ type: 'reply', reply_id: 'rpl_1', format: 'chat', text: 'Hi' });
  });

  it('leaves out, whole, an event of an unknown type or whose data has not got its type’s shape, and keeps the rest', () => {
    const events = readEvents([
      { ...base, id: 'evt_new', type: 'conversation.translated', data: { text: 'Hallo' } },
      reply({}),
      {
        ...base,
        id: 'evt_closed',
        type: 'conversation.closed',
        data: { type: 'close', resolved: 'yes', closed_by: 'ai' },
      },
      'not an event',
      reply({ text: 'Kept' }),
    ]);
    expect(events.map((event) => event.id)).toEqual(['evt_1']);
    expect(events[0]?.data).toMatchObject({ text: 'Kept' });
  });

  it('takes events of no conversation (report.ready, ping) with a null conversation_id, but not a conversation event without one', () => {
    expect(
      readEvents([
        { ...base, type: 'report.ready', conversation_id: null, data: { report_id: 'rpt_1', kind: 'csat', rows: 3 } },
      ]),
    ).toHaveLength(1);
    expect(readEvents([{ ...base, type: 'ping', conversation_id: null, data: {} }])).toHaveLength(1);
    expect(readEvents([{ ...reply({ text: 'x' }), conversation_id: null }])).toHaveLength(0);
  });

  it('describes every type of the union in JSON Schema (for the OpenAPI document)', () => {
    expect(() => EngineEvent.toJSONSchema({ io: 'output', unrepresentable: 'any' })).not.toThrow();
  });
});
