import { describe, expect, it } from 'vitest';
import { agoText, earlierThan, statusWords } from './format.ts';
import type { DeskConversation } from './types.ts';

const conversation = (id: number, createdAt: number, status: DeskConversation['status'] = 'resolved') =>
  ({ id, created_at: createdAt, status, handled_by: 'ai' }) as DeskConversation;

describe('what the console writes about conversations', () => {
  it('says how long ago without "just now ago"', () => {
    const now = 1_000_000_000_000;
    expect(agoText(now / 1000 - 5, now)).toBe('just now');
    expect(agoText(now / 1000 - 300, now)).toBe('5 min ago');
    expect(agoText(now / 1000 - 3 * 86_400, now)).toBe('3 d ago');
  });

  it('names a status in words, never pending or open', () => {
    expect(statusWords({ status: 'pending', handled_by: 'ai' })).toBe('With the AI');
    expect(statusWords({ status: 'open', handled_by: 'human' })).toBe('With people');
    expect(statusWords({ status: 'resolved', handled_by: 'human' })).toBe('Resolved');
    expect(statusWords({ status: 'snoozed', handled_by: 'human' })).toBe('Snoozed');
  });

  it('lists only the conversations before the open one, newest first', () => {
    const open = conversation(2, 200, 'open');
    const all = [conversation(1, 100), open, conversation(3, 300, 'pending'), conversation(0, 50)];
    expect(earlierThan(open, all).map((entry) => entry.id)).toEqual([1, 0]);
  });
});
