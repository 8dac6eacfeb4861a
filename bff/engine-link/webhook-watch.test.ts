import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { logger } from '../../test/stack.ts';
import { createWebhookWatch } from './webhook-watch.ts';

/**
 * The webhook watch sets its timer for the first watched event only: an engine answer with no reply
 * in it (a Resolve's) used to set one for Math.min() of nothing, Infinity, and Node printed
 * "TimeoutOverflowWarning: Infinity does not fit" (issue 31).
 */
describe('the webhook watch timer', () => {
  afterEach(() => vi.restoreAllMocks());

  // The store is not read until a watched event is due, which these tests never wait for.
  const watch = () =>
    createWebhookWatch({
      sql: {} as Sql,
      logger,
      feed: { stopped: false, quiet: false, setQuiet: () => undefined, wake: () => undefined },
      graceMs: 30_000,
    });

  it('sets no timer for an answer without a reply in it', () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    watch().expect([{ type: 'conversation.closed', id: 'evt_1' } as unknown as EngineEvent]);
    expect(timers).not.toHaveBeenCalled();
  });

  it('sets a finite timer for an answer with a reply', () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const made = watch();
    made.expect([{ type: 'conversation.reply', id: 'evt_2' } as unknown as EngineEvent]);
    expect(timers).toHaveBeenCalledOnce();
    expect(Number.isFinite(timers.mock.calls[0]![1])).toBe(true);
    made.stop();
  });
});
