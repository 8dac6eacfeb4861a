import { describe, expect, it } from 'vitest';
import { arrivals, attentionCount, titleWith, type Seen } from './attention.ts';
import type { DeskConversation } from './types.ts';

const ME = 7;
const conversation = (id: number, patch: Partial<DeskConversation>) =>
  ({ id, status: 'pending', assignee_id: null, unread_count: 0, ...patch }) as DeskConversation;

describe('what wants the person on shift', () => {
  it('tells a new handover once, when a conversation becomes open', () => {
    const seen = new Map<number, Seen>([[1, { status: 'pending', unread: 0 }]]);
    const list = [conversation(1, { status: 'open' }), conversation(2, { status: 'pending' })];
    expect(arrivals(seen, list, ME, undefined).handovers.map((entry) => entry.id)).toEqual([1]);
    const after = new Map<number, Seen>([[1, { status: 'open', unread: 0 }]]);
    expect(arrivals(after, list, ME, undefined).handovers).toEqual([]);
  });

  it("tells a new message in one's own conversation, not in others' nor in the one being read", () => {
    const seen = new Map<number, Seen>([
      [1, { status: 'open', unread: 0 }],
      [2, { status: 'open', unread: 0 }],
      [3, { status: 'open', unread: 0 }],
    ]);
    const list = [
      conversation(1, { status: 'open', assignee_id: ME, unread_count: 1 }),
      conversation(2, { status: 'open', assignee_id: 9, unread_count: 1 }),
      conversation(3, { status: 'open', assignee_id: ME, unread_count: 2 }),
    ];
    expect(arrivals(seen, list, ME, 3).messages.map((entry) => entry.id)).toEqual([1]);
  });

  it('counts in the title the waiting customers and my unread conversations', () => {
    const list = [
      conversation(1, { status: 'open' }),
      conversation(2, { status: 'open', assignee_id: ME, unread_count: 3 }),
      conversation(3, { status: 'open', assignee_id: ME }),
      conversation(4, { status: 'open', assignee_id: 9, unread_count: 1 }),
      conversation(5, { status: 'pending' }),
    ];
    expect(attentionCount(list, ME)).toBe(2);
    expect(titleWith(2)).toBe('(2) Parley · Conversations');
    expect(titleWith(0)).toBe('Parley · Conversations');
  });
});
