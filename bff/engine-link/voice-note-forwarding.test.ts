import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetMessage } from '../../shared/index.ts';
import { fakeTranscriber } from '../../test/fake-stt.ts';
import { oggOpusOf } from '../../test/recording-fixtures.ts';
import { DRIVERS, engineConversationOf, request, startEngine, startStack } from '../../test/stack.ts';
import type { TestEngine, TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { z } from 'zod';
import { DeskConversationList, DeskMessage, User } from '../../shared/schemas/helpdesk/index.ts';
import { newVisitor, openWidgetConversation } from '../../test/widget-client.ts';
import { MemoryAttachmentStorage } from '../attachments/storage.ts';

/**
 * A customer's voice note reaches the AI (issue 30): the BFF uploads it to the engine's /v1/media in
 * the conversation, the engine has it transcribed (here by a stand-in for whisper.cpp's server,
 * real HTTP), the AI answers the transcript as the customer's words, and the BFF keeps the
 * transcript with the note for the team.
 */
describe('voice notes forwarded to the engine on PGlite', () => {
  const driver = DRIVERS[0]!;
  const storage = new MemoryAttachmentStorage();
  let stt: Awaited<ReturnType<typeof fakeTranscriber>>;
  let engine: TestEngine;
  let stack: TestStack;

  beforeAll(async () => {
    stt = await fakeTranscriber();
    engine = await startEngine(driver, undefined, {
      media: { stt: { baseUrl: stt.baseUrl, model: 'whisper-1', apiKey: 'sk-stt' } },
    });
    stack = await startStack(
      driver,
      { AI_API_URL: engine.url, AI_API_KEY: engine.apiKeys, DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN },
      { feedPollMs: 100, attachments: { storage, maxBytes: 2 * 1024 * 1024 } },
    );
  });
  afterAll(async () => {
    await stack?.stop();
    await engine?.stop();
    await stt?.close();
  });

  /** The conversation's messages as an administrator of the stack's account reads them. */
  async function teamMessages() {
    const platform = (path: string, body: unknown) =>
      desk(`${stack.url}/platform/api/v1${path}`, PLATFORM_TOKEN, { body });
    const admin = User.parse((await platform('/users', { name: 'Ada', email: 'ada@voice.example' })).body);
    await platform(`/accounts/${stack.accountId}/account_users`, { user_id: admin.id, role: 'administrator' });
    const app = (path: string) => desk(`${stack.url}/api/v1/accounts/${stack.accountId}${path}`, admin.access_token);
    const [listed] = DeskConversationList.parse((await app('/conversations?status=all')).body).data.payload;
    const messages = (await app(`/conversations/${listed!.id}/messages`)).body;
    return z.object({ payload: z.array(DeskMessage) }).parse(messages).payload;
  }

  async function sendNote(token: string, id: string, bytes: Buffer, name: string): Promise<WidgetMessage> {
    const form = new FormData();
    form.append('message_id', randomUUID());
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'audio/ogg' }), name);
    const response = await fetch(`${stack.url}/v1/widget/conversations/${id}/attachments`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(201);
    return (await response.json()) as WidgetMessage;
  }

  it('uploads a voice note from the widget to the engine, which answers its transcript, and keeps the transcript', async () => {
    stt.answer(() => ({ body: { text: ' How do I return an item? ' } }));
    const { token } = await newVisitor(stack.url);
    const conversation = await openWidgetConversation(stack.url, token);
    const note = oggOpusOf(3);
    await sendNote(token, conversation.id, note, 'voice-note.ogg');

    // The customer sees the AI's answer to what they said.
    const messages = await until(
      async () =>
        (await request(`${stack.url}/v1/widget/conversations/${conversation.id}/messages`, { token })).body
          .messages as WidgetMessage[],
      (all) => all.some((message) => message.author === 'ai'),
      'the AI answer to the voice note',
    );
    expect(messages[0]).toMatchObject({
      author: 'customer',
      attachments: [expect.objectContaining({ kind: 'audio' })],
    });
    // The stand-in heard the note's bytes, as the BFF keeps them.
    expect(stt.requests.at(-1)!.bytes.equals(note)).toBe(true);
    // In the engine, the transcript is the customer's turn (no "[voice note: …]" text), and the AI answered it.
    const engineId = await engineConversationOf(stack, conversation.id);
    const transcript = await request(`${engine.url}/v1/conversations/${engineId}/transcript`, { token: engine.apiKey });
    const turns = transcript.body.turns as { role: string; text: string }[];
    expect(turns.filter((turn) => turn.role === 'customer').map((turn) => turn.text)).toEqual([
      'How do I return an item?',
    ]);
    expect(turns.at(-1)?.role).toBe('ai');
    // The BFF keeps what was heard with the note, for the team.
    const kept = await until(
      () =>
        stack.bffSql.query<{ transcript: string | null }>(
          'SELECT transcript FROM attachments WHERE content_type = $1',
          ['audio/ogg'],
        ),
      (rows) => rows[0]?.transcript !== null,
      'the transcript kept',
    );
    expect(kept).toEqual([{ transcript: 'How do I return an item?' }]);

    // The team reads it under the note (the Application API); the customer's own messages never carry it.
    const teamNote = await teamMessages();
    expect(teamNote.find((message) => message.message_type === 0)?.attachments).toEqual([
      expect.objectContaining({ file_type: 'audio', transcript: 'How do I return an item?' }),
    ]);
    const widget = await request(`${stack.url}/v1/widget/conversations/${conversation.id}/messages`, { token });
    expect(JSON.stringify(widget.body)).not.toContain('transcript');
  });
});
