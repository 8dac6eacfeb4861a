import { describe, expect, it } from 'vitest';
import type { DeskMessage } from '../types.ts';
import { extrasOf, ratingText } from './message-extras.ts';

const message = (content_attributes: DeskMessage['content_attributes'], message_type: 1 | 3 = 1): DeskMessage => ({
  id: 1,
  content: 'Which order?',
  message_type,
  content_type: message_type === 3 ? 'input_csat' : 'text',
  private: false,
  created_at: 1_800_000_000,
  conversation_id: 2,
  sender: null,
  content_attributes,
});

describe('what the console shows beside a message', () => {
  it("shows the AI's suggestion buttons as the customer saw them", () => {
    const extras = extrasOf(
      message({ items: [{ title: 'My orders', value: 'Show my orders' }, { title: 'Returns' }] }),
    );
    expect(extras.buttons).toEqual(['My orders', 'Returns']);
    expect(extras.card).toBeUndefined();
  });

  it("shows the AI's card once, not again as a button", () => {
    const card = { title: 'Order #1001', fields: [{ label: 'Status', value: 'Shipped' }] };
    const extras = extrasOf(message({ card, items: [{ title: 'Order #1001', description: 'Status: Shipped' }] }));
    expect(extras).toEqual({ buttons: [], card, rating: undefined });
  });

  it("shows the survey's rating and comment", () => {
    const answer = { csat_survey_response: { rating: 4, feedback_message: 'Quick, thanks' } };
    const extras = extrasOf(message({ submitted_values: answer }, 3));
    expect(extras.rating).toEqual({ rating: 4, comment: 'Quick, thanks' });
    expect(ratingText(extras.rating!)).toBe('Rated 4 of 5: “Quick, thanks”');
    expect(ratingText({ rating: 2, comment: '' })).toBe('Rated 2 of 5');
  });

  it('ignores answers that are no rating', () => {
    expect(extrasOf(message({ submitted_values: { csat_survey_response: { rating: 9 } } })).rating).toBeUndefined();
    expect(extrasOf(message({ submitted_values: 'yes' })).rating).toBeUndefined();
    expect(extrasOf(message({})).buttons).toEqual([]);
  });
});
