import { describe, expect, it } from 'vitest';
import { DeskMessage } from '../../shared/schemas/helpdesk/index.ts';
import { deskMessageShape } from './shapes.ts';
import type { DeskMessageRow } from './store/desk-conversations.ts';

const row = (patch: Partial<DeskMessageRow> = {}): DeskMessageRow => ({
  id: 7,
  author: 'ai',
  author_name: null,
  text: 'Which order?',
  content_type: 'text',
  private: false,
  created_at: new Date('2026-11-27T10:00:00Z'),
  conversation_id: 3,
  contact_name: 'Ana',
  attributes: null,
  submitted_values: null,
  sender_user_id: null,
  sender_user_name: null,
  sender_user_display_name: null,
  sender_agent_bot_id: null,
  sender_agent_bot_name: null,
  ...patch,
});

describe('a message as the people see it (content_attributes)', () => {
  it("carries the AI's suggestion buttons as Chatwoot's items", () => {
    const shown = deskMessageShape({
      ...row(),
      attributes: { choices: [{ label: 'My orders', value: 'Show my orders' }] },
    });
    expect(shown.content_attributes).toEqual({ items: [{ title: 'My orders', value: 'Show my orders' }] });
    expect(DeskMessage.parse(shown)).toEqual(shown);
  });

  it("carries the AI's card, and as an item with its fields for Chatwoot's clients", () => {
    const card = { title: 'Order #1001', fields: [{ label: 'Status', value: 'Shipped' }] };
    const shown = deskMessageShape({ ...row(), attributes: { card } });
    expect(shown.content_attributes).toEqual({
      card,
      items: [{ title: 'Order #1001', description: 'Status: Shipped' }],
    });
  });

  it("carries the survey's rating and comment on the survey question", () => {
    const answer = { csat_survey_response: { rating: 4, feedback_message: 'Quick, thanks' } };
    const shown = deskMessageShape({
      ...row({ author: 'system', content_type: 'input_csat', text: 'How did we do?' }),
      submitted_values: answer,
    });
    expect(shown.message_type).toBe(3);
    expect(shown.content_attributes).toEqual({ submitted_values: answer });
  });

  it('has empty content_attributes for a plain message, as Chatwoot', () => {
    expect(deskMessageShape({ ...row(), attributes: null, submitted_values: null }).content_attributes).toEqual({});
  });
});
