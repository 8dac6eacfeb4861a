import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../shared/index.ts';
import { DRIVERS, logger, startStack, type TestStack } from '../../test/stack.ts';
import { newVisitor, openWidgetConversation } from '../../test/widget-client.ts';
import { createEngineEventRecorder } from './engine-events.ts';
import { Publisher, type ChangeBatch } from '../realtime/publisher.ts';
import { findConversationById } from '../store/conversations.ts';
import { insertMessage } from '../store/messages.ts';

/**
 * The engine's answer to a forwarded message and its webhook carry the same events, and either may
 * be recorded first. When the webhook wins, the relay's later record keeps no second message, and
 * must still mark the forwarded message as accepted and read by the answer the webhook kept.
 */
describe.each(DRIVERS)('an answer whose webhook came before the engine answered the relay, on %s', (driver) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack(driver, {}, { feedPollMs: 0 });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** A conversation with one customer message that the relay has not touched (it has no outbox row). */
  async function customerWrote() {
    const { token } = await newVisitor(stack.url);
    const { id: uuid } = await openWidgetConversation(stack.url, token);
    const [row] = await stack.bffSql.query<{ id: number }>('SELECT id FROM conversations WHERE uuid = $1', [uuid]);
    const conversation = (await findConversationById(stack.bffSql, row!.id))!;
    const { message } = await insertMessage(
      stack.bffSql,
      conversation,
      { author: 'customer', text: 'Do you ship abroad?', messageId: `race-${uuid}`, upstream: 'pending' },
      new Date(),
    );
    const publisher = new Publisher(logger);
    const batches: ChangeBatch[] = [];
    publisher.subscribe((batch) => batches.push(batch));
    const recorder = createEngineEventRecorder({ sql: stack.bffSql, publisher, now: () => new Date() });
    const status = async () =>
      (
        await stack.bffSql.query<{ upstream: string; read: boolean }>(
          'SELECT upstream, read_at IS NOT NULL AS read FROM messages WHERE id = $1',
          [message.id],
        )
      )[0];
    const kept = async () =>
      (
        await stack.bffSql.query<{ n: number }>('SELECT count(*)::int AS n FROM messages WHERE conversation_id = $1', [
          conversation.id,
        ])
      )[0]!.n;
    return { conversation, message, recorder, batches, status, kept };
  }

  const reply = (suffix: string): EngineEvent => ({
    id: `evt_race_${driver.name}_${suffix}`,
    type: 'conversation.reply',
    created_at: new Date().toISOString(),
    conversation_id: 'cnv_race',
    data: { type: 'reply', reply_id: `rpl_race_${suffix}`, format: 'chat', text: 'Yes, to most countries.' },
  });

  it('reads the forwarded message when its one answer event was kept by the webhook first', async () => {
    const { conversation, message, recorder, batches, status, kept } = await customerWrote();
    const event = reply(`one_${message.id}`);
    await recorder.record(conversation, [event], { byWebhook: true });
    // The webhook kept the answer, but the message was not yet accepted by the engine as far as the BFF knows.
    expect(await status()).toEqual({ upstream: 'pending', read: false });
    expect(await kept()).toBe(2);

    await recorder.record(conversation, [event], { forwardedMessageRowId: message.id });
    expect(await status()).toEqual({ upstream: 'forwarded', read: true });
    expect(await kept()).toBe(2);
    expect(batches.at(-1)!.changes).toContainEqual({ type: 'message.status', messageId: message.id, status: 'read' });
  });

  it('reads the forwarded message when an answer of several events was kept by the webhook first', async () => {
    const { conversation, message, recorder, batches, status, kept } = await customerWrote();
    const opened: EngineEvent = {
      id: `evt_race_${driver.name}_opened_${message.id}`,
      type: 'conversation.opened',
      created_at: new Date().toISOString(),
      conversation_id: 'cnv_race',
      data: { customer_ref: 'race' },
    };
    const event = reply(`many_${message.id}`);
    await recorder.record(conversation, [event], { byWebhook: true });
    expect(await status()).toEqual({ upstream: 'pending', read: false });

    await recorder.record(conversation, [opened, event], { forwardedMessageRowId: message.id });
    expect(await status()).toEqual({ upstream: 'forwarded', read: true });
    expect(await kept()).toBe(2);
    expect(batches.at(-1)!.changes).toContainEqual({ type: 'message.status', messageId: message.id, status: 'read' });
  });
});
