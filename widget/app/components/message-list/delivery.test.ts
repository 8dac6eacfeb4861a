import { describe, expect, it } from 'vitest';
import type { ShownMessage } from '../../chat/messages.ts';
import { shownStatus } from './delivery.ts';

const message = (author: ShownMessage['author'], status: ShownMessage['status'] = 'sent'): ShownMessage => ({
  key: Math.random().toString(36),
  author,
  authorName: author === 'human' ? 'Sam' : null,
  text: 'x',
  createdAt: '2026-11-24T10:00:00Z',
  status,
  choices: null,
  card: null,
});

describe("what a customer's message says of itself", () => {
  it('says Delivered, not Read, when the AI answered it', () => {
    const log = [message('customer', 'read'), message('ai')];
    expect(shownStatus(log, 0)).toBe('delivered');
  });

  it('says Read when a person answered it, even after the AI answered earlier ones', () => {
    const log = [
      message('customer', 'read'),
      message('ai'),
      message('system'),
      message('customer', 'read'),
      message('human'),
    ];
    expect(shownStatus(log, 0)).toBe('delivered');
    expect(shownStatus(log, 3)).toBe('read');
  });

  it('keeps Read for a message a person opened and nobody answered, after a hand-back to the AI', () => {
    const log = [message('customer', 'read'), message('system')];
    expect(shownStatus(log, 0)).toBe('read');
  });

  it("says Delivered for a sent message that has an answer after it (the AI's answer comes with no status push)", () => {
    expect(shownStatus([message('customer', 'sent'), message('ai')], 0)).toBe('delivered');
    expect(shownStatus([message('customer', 'sent'), message('customer', 'sent'), message('human')], 0)).toBe(
      'delivered',
    );
    expect(shownStatus([message('customer', 'sent')], 0)).toBe('sent');
    expect(shownStatus([message('customer', 'sent'), message('system')], 0)).toBe('sent');
  });

  it('leaves sending, delivered and failed as they are', () => {
    for (const status of ['sending', 'delivered', 'failed'] as const)
      expect(shownStatus([message('customer', status), message('ai')], 0)).toBe(status);
  });
});
