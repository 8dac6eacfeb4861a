import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetMessage } from '../../shared/index.ts';
import { mp4Of, oggOpusOf, webmOf } from '../../test/recording-fixtures.ts';
import { DRIVERS, engineConversationOf, request, startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { newVisitor, openWidgetConversation } from '../../test/widget-client.ts';
import { MemoryAttachmentStorage } from './storage.ts';

/** One file as the widget sends it, with what the browser would claim (never believed). */
function form(bytes: Buffer | string, name: string, type: string): FormData {
  const body = new FormData();
  body.append('message_id', randomUUID());
  body.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type }), name);
  return body;
}

describe.each(DRIVERS)('voice notes and videos in the widget on $name', (driver) => {
  let stack: TestStack;
  const storage = new MemoryAttachmentStorage();

  beforeAll(async () => {
    stack = await startStack(driver, {}, { feedPollMs: 0, attachments: { storage, maxBytes: 2 * 1024 * 1024 } });
  });
  afterAll(() => stack?.stop());

  async function customer() {
    const { token } = await newVisitor(stack.url);
    const conversation = await openWidgetConversation(stack.url, token);
    return { token, id: conversation.id };
  }
  async function upload(token: string, id: string, bytes: Buffer | string, name: string, type: string) {
    const response = await fetch(`${stack.url}/v1/widget/conversations/${id}/attachments`, {
      method: 'POST',
      body: form(bytes, name, type),
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: response.status, body: (await response.json()) as any };
  }
  const attachmentCount = async () =>
    (await stack.bffSql.query<{ n: number }>('SELECT count(*)::int AS n FROM attachments'))[0]!.n;

  it('keeps a voice note by its bytes, serves it inline as audio to play in place, and hands it to the AI', async () => {
    const { token, id } = await customer();
    const note = oggOpusOf(5);
    const sent = await upload(token, id, note, 'recording.bin', 'application/octet-stream');
    expect(sent.status).toBe(201);
    const message = sent.body as WidgetMessage;
    expect(message.attachments).toEqual([
      expect.objectContaining({ kind: 'audio', content_type: 'audio/ogg', name: 'recording.ogg', size: note.length }),
    ]);
    const served = await fetch(`${stack.url}${message.attachments![0]!.url}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(served.headers.get('content-type')).toBe('audio/ogg');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(served.headers.get('content-disposition')).toMatch(/^inline; filename="recording.ogg"/);
    expect(Buffer.from(await served.arrayBuffer()).equals(note)).toBe(true);
    const engineId = await engineConversationOf(stack, id);
    const transcript = await until(
      () => request(`${stack.engineUrl}/v1/conversations/${engineId}/transcript`, { token: stack.apiKey }),
      (read) => read.body.turns.length > 0,
      'the answer to the voice note',
    );
    // The note itself went to the engine's /v1/media (not a "[voice note: …]" text): without a
    // transcription API there, the AI says it cannot listen to it yet (bff/engine-link/voice-note-forwarding.ts).
    expect(transcript.body.turns[0]).toMatchObject({ role: 'ai', text: expect.stringContaining('voice notes') });
  });

  it('keeps a video as a video and a browser recording (a Blob named "blob") as a voice note', async () => {
    const { token, id } = await customer();
    const video = await upload(token, id, mp4Of('isom', ['vide', 'soun'], 12), 'clip.mov', 'video/quicktime');
    expect(video.body.attachments[0]).toMatchObject({ kind: 'video', content_type: 'video/mp4', name: 'clip.mp4' });
    expect(video.status, JSON.stringify(video.body)).toBe(201);
    const note = await upload(token, id, webmOf('audio'), 'blob', 'audio/webm');
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    expect(note.body.attachments[0]).toMatchObject({
      kind: 'audio',
      content_type: 'audio/webm',
      name: 'blob.weba',
    });
  });

  it('refuses a .ogg that is not audio (415), an overlong note (422) and an oversize one (413), keeping nothing', async () => {
    const { token, id } = await customer();
    const before = await attachmentCount();
    const fake = await upload(token, id, 'this is text, not a voice note', 'voice-note.ogg', 'audio/ogg');
    expect(fake.status).toBe(415);
    expect(fake.body.error.code).toBe('unsupported_media_type');
    const overlong = await upload(token, id, oggOpusOf(600), 'long.ogg', 'audio/ogg');
    expect(overlong.status).toBe(422);
    expect(overlong.body.error).toMatchObject({
      code: 'unprocessable',
      message: expect.stringContaining('300 seconds'),
    });
    const oversize = await upload(
      token,
      id,
      Buffer.concat([webmOf('audio'), Buffer.alloc(2 * 1024 * 1024)]),
      'big.webm',
      'audio/webm',
    );
    expect(oversize.status).toBe(413);
    expect(await attachmentCount()).toBe(before);
  });
});
