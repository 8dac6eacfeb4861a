import { describe, expect, it } from 'vitest';
import type { WidgetConversation } from '../../../shared/index.ts';
import { withConversation } from './state.ts';
import { unreadIn } from './unread.ts';

const conversation = (id: string, unread: number) => ({ id, unread }) as WidgetConversation;

describe('the unread count', () => {
  it("adds up every conversation's unread messages (the launcher's badge)", () => {
    expect(unreadIn([conversation('a', 2), conversation('b', 0), conversation('c', 3)])).toBe(5);
    expect(unreadIn([])).toBe(0);
  });

  it('changes only the conversation read, in a new list', () => {
    const list = [conversation('a', 2), conversation('b', 1)];
    const read = withConversation(list, 'b', () => ({ unread: 0 }));
    expect(unreadIn(read)).toBe(2);
    expect(read[0]).toBe(list[0]);
    expect(list[1]?.unread).toBe(1);
  });
});
