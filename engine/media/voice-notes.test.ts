import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeTranscriber } from '../../test/fake-stt.ts';
import { mp4Of, oggOpusOf, wavOf, webmOf } from '../../test/recording-fixtures.ts';
import { DRIVERS, request, startEngine, type TestEngine } from '../../test/stack.ts';
import { until } from '../../test/until.ts';

/** Uploads as a client would: a multipart form with the file and the conversation it belongs to. */
async function upload(engine: TestEngine, bytes: Buffer, name: string, conversationId?: string) {
  const form = new FormData();
  if (conversationId) form.append('conversation_id', conversationId);
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const response = await fetch(`${engine.url}/v1/media`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${engine.apiKey}` },
  });
  return { status: response.status, body: (await response.json()) as any };
}

type FeedEvent = { type: string; conversation_id: string | null; data: any };

const eventsOf = async (engine: TestEngine, conversationId: string): Promise<FeedEvent[]> =>
  (await request(`${engine.url}/v1/events?limit=1000`, { token: engine.apiKey })).body.events.filter(
    (event: FeedEvent) => event.conversation_id === conversationId,
  );

/** Waits until the conversation's feed has an event of `type` after the medium's own event. */
const waitFor = (engine: TestEngine, conversationId: string, type: string) =>
  until(
    () => eventsOf(engine, conversationId),
    (events) => events.some((event) => event.type === type),
    `${type} in ${conversationId}`,
  );

async function openConversation(engine: TestEngine, customerRef: string): Promise<string> {
  return (
    await request(`${engine.url}/v1/conversations`, { token: engine.apiKey, body: { customer_ref: customerRef } })
  ).body.id;
}

describe.each(DRIVERS)('voice notes heard through a transcription API on $name', (driver) => {
  let engine: TestEngine;
  let stt: Awaited<ReturnType<typeof fakeTranscriber>>;

  beforeAll(async () => {
    // A stand-in for whisper.cpp's server (no speech model runs here): real HTTP, the real multipart protocol.
    stt = await fakeTranscriber();
    engine = await startEngine(driver, undefined, {
      media: { stt: { baseUrl: stt.baseUrl, model: 'whisper-1', apiKey: 'sk-stt' } },
    });
  });
  afterAll(async () => {
    await engine?.stop();
    await stt?.close();
  });

  it('transcribes a voice note, carries the transcript in media.understood, and the AI answers it as the customer’s words', async () => {
    stt.answer(() => ({ body: { text: ' How do I return an item? ' } }));
    const conversationId = await openConversation(engine, 'voice-customer');
    const note = oggOpusOf(4);
    const created = await upload(engine, note, 'voice-note.ogg', conversationId);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'audio/ogg', duration_s: 4, status: 'processing' });

    const events = await waitFor(engine, conversationId, 'conversation.reply');
    const understood = events.find((event) => event.type === 'media.understood')!;
    expect(understood.data).toMatchObject({
      media_id: created.body.id,
      type: 'audio/ogg',
      duration_s: 4,
      transcript: 'How do I return an item?',
    });
    // The stand-in got the note as sent, with the model and the key.
    expect(stt.requests.at(-1)).toMatchObject({ model: 'whisper-1', authorization: 'Bearer sk-stt' });
    expect(stt.requests.at(-1)!.bytes.equals(note)).toBe(true);
    // The transcript is the customer's turn; the record keeps it as its text.
    const transcript = await request(`${engine.url}/v1/conversations/${conversationId}/transcript`, {
      token: engine.apiKey,
    });
    // (What the brain says depends on its time budget on a loaded machine; that it answered these words does not.)
    const turns = transcript.body.turns as { role: string; text: string }[];
    const asked = turns.findIndex((turn) => turn.role === 'customer' && turn.text === 'How do I return an item?');
    expect(asked).toBeGreaterThanOrEqual(0);
    expect(turns[asked + 1]?.role).toBe('ai');
    const record = await request(`${engine.url}/v1/media/${created.body.id}`, { token: engine.apiKey });
    expect(record.body).toMatchObject({ status: 'understood', text: 'How do I return an item?' });
  });

  it('fails the note as unavailable when the transcription API fails, and the AI does not answer it', async () => {
    stt.answer(() => ({ status: 500, body: { error: { message: 'model not loaded' } } }));
    const conversationId = await openConversation(engine, 'voice-customer-2');
    const created = await upload(engine, wavOf(2), 'note.wav', conversationId);
    const events = await waitFor(engine, conversationId, 'media.failed');
    expect(events.find((event) => event.type === 'media.failed')!.data).toMatchObject({
      media_id: created.body.id,
      code: 'unavailable',
      reason: expect.stringContaining('500'),
    });
    await engine.engine.media.settled();
    expect((await eventsOf(engine, conversationId)).some((event) => event.type === 'conversation.reply')).toBe(false);
  });

  it('keeps a video by its facts and never sends it to the transcription API', async () => {
    const before = stt.requests.length;
    const conversationId = await openConversation(engine, 'video-customer');
    const created = await upload(engine, mp4Of('isom', ['vide', 'soun'], 20), 'clip.mp4', conversationId);
    expect(created.body).toMatchObject({ type: 'video/mp4', duration_s: 20 });
    const events = await waitFor(engine, conversationId, 'media.understood');
    expect(events.find((event) => event.type === 'media.understood')!.data).not.toHaveProperty('transcript');
    expect(stt.requests.length).toBe(before);
  });
});

describe.each(DRIVERS)('voice notes without a transcription API on $name', (driver) => {
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startEngine(driver);
  });
  afterAll(() => engine?.stop());

  it('fails the note as not_configured, and the AI says in the customer’s language that it cannot listen yet, offering a person', async () => {
    const conversationId = await openConversation(engine, 'voice-customer-de');
    await request(`${engine.url}/v1/conversations/${conversationId}/messages`, {
      token: engine.apiKey,
      body: { text: 'Hallo', locale: 'de' },
    });
    const created = await upload(engine, webmOf('audio'), 'aufnahme.webm', conversationId);
    expect(created.body).toMatchObject({ type: 'audio/webm', duration_s: null });
    const events = await until(
      () => eventsOf(engine, conversationId),
      (all) => all.filter((event) => event.type === 'conversation.reply').length >= 2,
      'the answer to the voice note',
    );
    expect(events.find((event) => event.type === 'media.failed')!.data).toMatchObject({
      media_id: created.body.id,
      code: 'not_configured',
    });
    const answer = events.filter((event) => event.type === 'conversation.reply').at(-1)!;
    expect(answer.data.text).toContain('Sprachnachrichten');
    expect(answer.data.choices).toEqual([
      { label: expect.any(String), value: 'Ich möchte bitte mit einer Person sprechen.' },
    ]);
  });
});
