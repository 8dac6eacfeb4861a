import { describe, expect, it } from 'vitest';
import type { DeskConversation } from './types.ts';
import { lastLine, rowName, rowTime } from './row-text.ts';

const NOW = 1_800_000_000_000;
const row = (patch: Partial<DeskConversation>) =>
  ({
    status: 'open',
    waiting_since: null,
    unread_count: 0,
    last_activity_at: NOW / 1000 - 120,
    last_non_activity_message: null,
    ...patch,
  }) as DeskConversation;

describe('a list row', () => {
  it('says how long the customer has waited for people', () => {
    expect(rowTime(row({ waiting_since: NOW / 1000 - 600 }), NOW)).toBe('waiting 10 min');
  });

  it('says only how long ago when answered or with the AI', () => {
    expect(rowTime(row({}), NOW)).toBe('2 min');
    expect(rowTime(row({ status: 'pending', waiting_since: NOW / 1000 - 600 }), NOW)).toBe('2 min');
  });

  it('shows the customer’s last line as written and marks an answer', () => {
    const message = { id: 1, content: 'Where is my order?', message_type: 0, created_at: 0 };
    expect(lastLine(row({ last_non_activity_message: message }))).toBe('Where is my order?');
    expect(lastLine(row({ last_non_activity_message: { ...message, message_type: 1 } }))).toBe(
      'Answer: Where is my order?',
    );
    expect(lastLine(row({}))).toBe('');
  });

  it('names an unknown customer by what their browser told, and a known one by their name or e-mail', () => {
    const contact = (patch: Partial<DeskConversation['contact']>) =>
      ({ name: null, email: null, additional_attributes: {}, ...patch }) as DeskConversation['contact'];
    const told = { time_zone: 'Europe/Berlin', city: 'Berlin', browser: 'Chrome' };
    const display_name = 'Visitor zbCj';
    expect(rowName({ display_name, contact: contact({ additional_attributes: told }) })).toBe(
      'Visitor from Berlin · Chrome',
    );
    expect(rowName({ display_name, contact: contact({ additional_attributes: { browser: 'a browser' } }) })).toBe(
      'Visitor · a browser',
    );
    expect(rowName({ display_name, contact: contact({}) })).toBe('Visitor zbCj');
    expect(rowName({ display_name: 'Ann', contact: contact({ name: 'Ann', additional_attributes: told }) })).toBe(
      'Ann',
    );
  });
});
