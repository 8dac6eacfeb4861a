import { describe, expect, it } from 'vitest';
import type { MessageStatus, WidgetMessage } from '../../../shared/index.ts';
import { mergeStored, pendingMessage, type ShownMessage } from './messages.ts';

const stored = (id: number, author: WidgetMessage['author'], messageId: string | null = null): WidgetMessage => ({
  id,
  conversation_id: 'cnv_1',
  message_id: messageId,
  author,
  author_name: null,
  text: `message ${id}`,
  status: 'sent',
  choices: null,
  card: null,
  created_at: '2026-11-24T10:00:00Z',
});

const inFlight = (messageId: string): ShownMessage =>
  pendingMessage({ messageId, text: messageId, createdAt: '2026-11-24T10:00:00Z' }, false);

const none = new Map<number, MessageStatus>();
const keys = (messages: ShownMessage[]) => messages.map((message) => message.key);

describe('merging stored messages into those shown', () => {
  it("puts the stored message in the place of the customer's own copy in flight", () => {
    const { messages } = mergeStored([inFlight('msg-a')], [stored(7, 'customer', 'msg-a')], none);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ key: 'msg-a', id: 7, status: 'sent' });
  });

  it('shows a message once when it comes again (a push and a catch-up)', () => {
    const once = mergeStored([], [stored(1, 'ai')], none).messages;
    const again = mergeStored(once, [stored(1, 'ai'), stored(1, 'ai')], none);
    expect(again.messages).toBe(once);
  });

  it("keeps stored messages in id order and the customer's messages in flight last, as written", () => {
    const shown = [inFlight('msg-b'), inFlight('msg-c')];
    const { messages } = mergeStored(shown, [stored(5, 'ai'), stored(3, 'human')], none);
    expect(keys(messages)).toEqual(['m3', 'm5', 'msg-b', 'msg-c']);
  });

  it('takes a status pushed before its message arrived', () => {
    const { messages } = mergeStored([], [stored(4, 'customer', 'msg-d')], new Map([[4, 'read']]));
    expect(messages[0]?.status).toBe('read');
  });

  it("says an answer came only for a new message that is not the customer's own", () => {
    expect(mergeStored([], [stored(1, 'customer', 'msg-e')], none).answered).toBe(false);
    expect(mergeStored([], [stored(2, 'ai')], none).answered).toBe(true);
    const shown = mergeStored([], [stored(2, 'ai')], none).messages;
    expect(mergeStored(shown, [stored(2, 'ai')], none).answered).toBe(false);
  });

  it('shows a message still in the outbox as sending, or as failed once it waits for Retry', () => {
    const item = { messageId: 'msg-f', text: 'Hello', createdAt: '2026-11-24T10:00:00Z' };
    expect(pendingMessage(item, false)).toMatchObject({ key: 'msg-f', author: 'customer', status: 'sending' });
    expect(pendingMessage(item, true).status).toBe('failed');
  });
});
