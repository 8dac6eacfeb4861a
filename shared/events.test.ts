import { describe, expect, it } from 'vitest';
import { replyOf, type EngineEvent } from './events.ts';

const event = (data: Record<string, unknown>, type = 'conversation.reply'): EngineEvent => ({ id: 'evt_1', type, created_at: '2026-01-01T00:00:00.000Z', conversation_id: 'cnv_1', data });

describe('reading a reply event', () => {
  it('gives the text, choices and card of a reply', () => {
    const choices = [{ label: 'Returns', value: 'How do I return an item?' }];
    const card = { title: 'Order 1', fields: [{ label: 'Status', value: 'shipped' }] };
    expect(replyOf(event({ type: 'reply', reply_id: 'rpl_1', format: 'chat', text: 'Hi', choices, card }))).toEqual({ type: 'reply', reply_id: 'rpl_1', format: 'chat', text: 'Hi', choices, card });
  });

  it('keeps the text when the choices or the card have another shape', () => {
    const reply = replyOf(event({ type: 'reply', reply_id: 'rpl_1', format: 'chat', text: 'Hi', choices: 'nope', card: { title: 5 } }));
    expect(reply).toEqual({ type: 'reply', reply_id: 'rpl_1', format: 'chat', text: 'Hi' });
  });

  it('is nothing for other events or a reply without text', () => {
    expect(replyOf(event({ text: 'x' }, 'conversation.human_message'))).toBeUndefined();
    expect(replyOf(event({ type: 'reply', reply_id: 'rpl_1', format: 'chat' }))).toBeUndefined();
  });
});
