import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completion, fakeModel } from '../test/fake-llm.ts';
import { gifOf, jpegOf, pdf, pngOf, webpOf } from '../test/media-fixtures.ts';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';
import { until } from '../test/until.ts';

/** A PDF with a catalog and two pages in plain sight. */
const twoPagePdf = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >> endobj\n' +
    '3 0 obj << /Type /Page /Parent 2 0 R >> endobj\n4 0 obj << /Type /Page /Parent 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

interface Upload {
  bytes: Buffer;
  name?: string;
  field?: string;
  fields?: Record<string, string>;
}

/** Uploads as a client would: a fresh FormData (and so a fresh boundary) each time. */
function upload(engine: TestEngine, key: string | undefined, files: Upload[], headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(files[0]?.fields ?? {})) form.append(name, value);
  for (const file of files)
    form.append(file.field ?? 'file', new Blob([new Uint8Array(file.bytes)]), file.name ?? 'upload.bin');
  return fetchJson(`${engine.url}/v1/media`, {
    method: 'POST',
    body: form,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
  });
}

async function fetchJson(url: string, init: RequestInit) {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON.
  }
  return { status: response.status, headers: response.headers, body };
}

const mediaEvents = async (engine: TestEngine, key: string) =>
  (await request(`${engine.url}/v1/events?types=media.understood,media.failed&limit=1000`, { token: key })).body
    .events as { type: string; conversation_id: string | null; data: any }[];

const eventOf = (engine: TestEngine, key: string, mediaId: string) =>
  until(
    () => mediaEvents(engine, key).then((events) => events.find((event) => event.data.media_id === mediaId)),
    (event) => event !== undefined,
    `the event of ${mediaId}`,
  ).then((event) => event!);

const countMedia = async (engine: TestEngine) =>
  (await engine.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM media'))[0]!.n;

describe.each(DRIVERS)('media on $name', (driver) => {
  let engine: TestEngine;
  let conversationId: string;

  beforeAll(async () => {
    engine = await startEngine(driver);
    conversationId = (
      await request(`${engine.url}/v1/conversations`, {
        token: engine.apiKey,
        body: { customer_ref: 'media-customer' },
      })
    ).body.id;
  });
  afterAll(() => engine?.stop());

  it('takes a photo by its bytes whatever its name, answers 201 with the record, then emits media.understood with its size and dimensions', async () => {
    const photo = pngOf(640, 480);
    const created = await upload(engine, engine.apiKey, [
      { bytes: photo, name: 'C:\\Users\\me\\broken-mug.txt', fields: { conversation_id: conversationId } },
    ]);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^med_/),
      conversation_id: conversationId,
      type: 'image/png',
      size: photo.length,
      width: 640,
      height: 480,
      name: 'broken-mug.txt',
      status: 'processing',
      text: null,
    });

    const event = await eventOf(engine, engine.apiKey, created.body.id);
    expect(event).toMatchObject({ type: 'media.understood', conversation_id: conversationId });
    expect(event.data).toEqual({
      media_id: created.body.id,
      conversation_id: conversationId,
      type: 'image/png',
      size: photo.length,
      width: 640,
      height: 480,
    });
    const record = await request(`${engine.url}/v1/media/${created.body.id}`, { token: engine.apiKey });
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({ id: created.body.id, status: 'understood', processed_at: expect.any(String) });
  });

  it('takes JPEG, GIF and WebP too, and a medium outside any conversation (its event names none)', async () => {
    for (const [bytes, type] of [
      [jpegOf(1200, 800), 'image/jpeg'],
      [gifOf(16, 16), 'image/gif'],
      [webpOf(300, 200), 'image/webp'],
    ] as const) {
      const created = await upload(engine, engine.apiKey, [{ bytes }]);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ type, conversation_id: null });
      const event = await eventOf(engine, engine.apiKey, created.body.id);
      expect(event.type).toBe('media.understood');
      expect(event.conversation_id).toBeNull();
      expect(event.data).not.toHaveProperty('conversation_id');
    }
  });

  it('serves the bytes as a download that no browser sniffs, renders in place or caches', async () => {
    const photo = jpegOf(100, 50);
    const created = await upload(engine, engine.apiKey, [{ bytes: photo, name: 'receipt.jpg' }]);
    const response = await fetch(`${engine.url}/v1/media/${created.body.id}/content`, {
      headers: { authorization: `Bearer ${engine.apiKey}` },
    });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(photo);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${created.body.id}.jpg"`);
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
  });

  it('understands a readable PDF with its page count, and fails a cut-short or encrypted one with the reason', async () => {
    const readable = await upload(engine, engine.apiKey, [
      { bytes: twoPagePdf, name: 'invoice.pdf', fields: { conversation_id: conversationId } },
    ]);
    expect(readable.body).toMatchObject({ type: 'application/pdf', width: null, height: null });
    const understood = await eventOf(engine, engine.apiKey, readable.body.id);
    expect(understood.type).toBe('media.understood');
    expect(understood.data).toMatchObject({ type: 'application/pdf', pages: 2 });
    expect((await request(`${engine.url}/v1/media/${readable.body.id}`, { token: engine.apiKey })).body.pages).toBe(2);

    const cut = await upload(engine, engine.apiKey, [
      { bytes: twoPagePdf.subarray(0, 120), fields: { conversation_id: conversationId } },
    ]);
    const failed = await eventOf(engine, engine.apiKey, cut.body.id);
    expect(failed).toMatchObject({ type: 'media.failed', conversation_id: conversationId });
    expect(failed.data).toEqual({
      media_id: cut.body.id,
      conversation_id: conversationId,
      type: 'application/pdf',
      size: 120,
      reason: expect.stringContaining('cut short'),
      code: 'unreadable',
    });
    expect((await request(`${engine.url}/v1/media/${cut.body.id}`, { token: engine.apiKey })).body).toMatchObject({
      status: 'failed',
      failure_reason: expect.stringContaining('cut short'),
    });

    const encrypted = Buffer.from(
      pdf.toString('latin1').replace('trailer << /Root 1 0 R >>', 'trailer << /Root 1 0 R /Encrypt 5 0 R >>'),
      'latin1',
    );
    const locked = await upload(engine, engine.apiKey, [{ bytes: encrypted }]);
    expect((await eventOf(engine, engine.apiKey, locked.body.id)).data.reason).toContain('encrypted');
  });

  it('refuses a file that is none of the accepted kinds by its content, whatever its name (415), and keeps nothing', async () => {
    const before = await countMedia(engine);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    for (const [bytes, name] of [
      [svg, 'logo.svg'],
      [html, 'photo.png'],
      [Buffer.from('GIF8'), 'tiny.gif'],
    ] as const) {
      const response = await upload(engine, engine.apiKey, [{ bytes, name }]);
      expect(response.status).toBe(415);
      expect(response.body.error.code).toBe('unsupported_media_type');
    }
    expect(await countMedia(engine)).toBe(before);
  });

  it('refuses a decompression bomb by its dimensions (422) and a file over 10 MB (413), and keeps nothing', async () => {
    const before = await countMedia(engine);
    const bomb = await upload(engine, engine.apiKey, [{ bytes: pngOf(20_000, 20_000) }]);
    expect(bomb.status).toBe(422);
    expect(bomb.body.error).toMatchObject({ code: 'unprocessable', message: expect.stringContaining('20000×20000') });
    const huge = Buffer.concat([pngOf(100, 100), Buffer.alloc(10 * 1024 * 1024 + 1 - 33)]);
    const tooBig = await upload(engine, engine.apiKey, [{ bytes: huge }]);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.code).toBe('payload_too_large');
    expect(await countMedia(engine)).toBe(before);
  });

  it('refuses a compressed body (415) and a body that is not multipart (415)', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pngOf(10, 10))]), 'a.png');
    const encoded = new Request('http://x', { method: 'POST', body: form });
    const zipped = gzipSync(Buffer.from(await encoded.arrayBuffer()));
    const compressed = await fetchJson(`${engine.url}/v1/media`, {
      method: 'POST',
      body: zipped,
      headers: {
        authorization: `Bearer ${engine.apiKey}`,
        'content-type': encoded.headers.get('content-type')!,
        'content-encoding': 'gzip',
      },
    });
    expect(compressed.status).toBe(415);
    expect(compressed.body.error.message).toContain('Compressed');
    const json = await request(`${engine.url}/v1/media`, { token: engine.apiKey, body: { file: 'aGVsbG8=' } });
    expect(json.status).toBe(415);
    expect(json.body.error.code).toBe('unsupported_media_type');
  });

  it('refuses a form without a file, with two files, with a file in another field or an unknown field, or naming a conversation not of this key', async () => {
    const before = await countMedia(engine);
    const photo = pngOf(10, 10);
    const cases = [
      await upload(engine, engine.apiKey, []),
      await upload(engine, engine.apiKey, [{ bytes: photo }, { bytes: photo }]),
      await upload(engine, engine.apiKey, [{ bytes: photo, field: 'attachment' }]),
      await upload(engine, engine.apiKey, [{ bytes: photo, fields: { caption: 'hello' } }]),
      await upload(engine, engine.apiKey, [{ bytes: photo, fields: { conversation_id: 'not-an-id' } }]),
    ];
    expect(cases.map((response) => [response.status, response.body.error.code])).toEqual(
      Array(5).fill([400, 'invalid_request']),
    );
    const other = await engine.issueKey({ otherAccount: true });
    const theirs = (
      await request(`${engine.url}/v1/conversations`, { token: other.key, body: { customer_ref: 'someone-else' } })
    ).body.id;
    const foreign = await upload(engine, engine.apiKey, [{ bytes: photo, fields: { conversation_id: theirs } }]);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect(await countMedia(engine)).toBe(before);
  });

  it('gives the same record to a retry with the same Idempotency-Key, even as a new form, and keeps one medium', async () => {
    const before = await countMedia(engine);
    const photo = pngOf(320, 240);
    const key = { 'idempotency-key': `upload-${driver.name}` };
    const first = await upload(
      engine,
      engine.apiKey,
      [{ bytes: photo, name: 'a.png', fields: { conversation_id: conversationId } }],
      key,
    );
    const again = await upload(
      engine,
      engine.apiKey,
      [{ bytes: photo, name: 'a.png', fields: { conversation_id: conversationId } }],
      key,
    );
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await countMedia(engine)).toBe(before + 1);
    const changed = await upload(
      engine,
      engine.apiKey,
      [{ bytes: pngOf(321, 240), name: 'a.png', fields: { conversation_id: conversationId } }],
      key,
    );
    expect(changed.status).toBe(422);
    expect(changed.body.error.code).toBe('idempotency_key_reused');
    // An upload far over the JSON routes' 640 KB still works with a key.
    const large = Buffer.concat([jpegOf(2000, 1500), Buffer.alloc(2 * 1024 * 1024)]);
    const big = await upload(engine, engine.apiKey, [{ bytes: large }], { 'idempotency-key': `large-${driver.name}` });
    expect(big.status).toBe(201);
    expect(big.body.size).toBe(large.length);
  });

  it('documents the upload as a multipart form with its file and conversation_id, refusing other fields, as the route does', async () => {
    const document = (await request(`${engine.url}/v1/openapi.json`)).body;
    const form = document.paths['/v1/media'].post.requestBody.content;
    expect(Object.keys(form)).toEqual(['multipart/form-data']);
    expect(form['multipart/form-data'].schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: { file: { type: 'string' }, conversation_id: { type: 'string' } },
    });
    expect(Object.keys(document.paths['/v1/media/{id}/content'].get.responses['200'].content).sort()).toEqual([
      'application/pdf',
      'audio/mp4',
      'audio/mpeg',
      'audio/ogg',
      'audio/wav',
      'audio/webm',
      'image/gif',
      'image/jpeg',
      'image/png',
      'image/webp',
      'video/mp4',
      'video/webm',
    ]);
  });

  it('asks for a valid key: none, a wrong or a revoked one is 401, and nothing is kept', async () => {
    const before = await countMedia(engine);
    const photo = pngOf(10, 10);
    expect((await upload(engine, undefined, [{ bytes: photo }])).status).toBe(401);
    expect((await upload(engine, `service_test_${'x'.repeat(32)}`, [{ bytes: photo }])).status).toBe(401);
    const revoked = await engine.issueKey();
    await engine.revokeKey(revoked.id);
    expect((await upload(engine, revoked.key, [{ bytes: photo }])).body.error.code).toBe('unauthorized');
    const created = await upload(engine, engine.apiKey, [{ bytes: photo }]);
    for (const path of [`/v1/media/${created.body.id}`, `/v1/media/${created.body.id}/content`]) {
      expect((await request(engine.url + path)).status).toBe(401);
    }
    expect(await countMedia(engine)).toBe(before + 1);
  });

  it("never shows another account's media, nor live media to a sandbox key or sandbox media to a live key (404)", async () => {
    const live = await upload(engine, engine.liveApiKey, [{ bytes: pngOf(50, 50) }]);
    const sandbox = await upload(engine, engine.apiKey, [{ bytes: pngOf(60, 60) }]);
    const other = await engine.issueKey({ otherAccount: true });
    for (const [id, key] of [
      [live.body.id, engine.apiKey],
      [sandbox.body.id, engine.liveApiKey],
      [sandbox.body.id, other.key],
    ] as const) {
      for (const path of [`/v1/media/${id}`, `/v1/media/${id}/content`]) {
        const response = await request(engine.url + path, { token: key });
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('not_found');
      }
    }
    expect((await request(`${engine.url}/v1/media/${live.body.id}`, { token: engine.liveApiKey })).status).toBe(200);
    // Each environment's feed tells of its own media only.
    await eventOf(engine, engine.liveApiKey, live.body.id);
    expect((await mediaEvents(engine, engine.apiKey)).some((event) => event.data.media_id === live.body.id)).toBe(
      false,
    );
    expect((await request(`${engine.url}/v1/media/med_${'0'.repeat(22)}`, { token: engine.apiKey })).status).toBe(404);
    expect((await request(`${engine.url}/v1/media/cnv_${'0'.repeat(22)}`, { token: engine.apiKey })).status).toBe(400);
  });
});

describe('media read by a model with vision (an OpenAI-compatible server written for the tests stands in for the model)', () => {
  const model = fakeModel();
  let engine: TestEngine;

  beforeAll(async () => {
    const baseUrl = await model.start();
    engine = await startEngine(undefined, undefined, { llm: { baseUrl, model: 'vision-model', vision: true } });
  });
  afterAll(async () => {
    await engine?.stop();
    await model.stop();
  });

  it("sends the picture to the model as an image_url part, and media.understood carries the model's words with codes masked", async () => {
    model.answer(() => ({
      body: completion(
        'A mug with a chipped handle. A sticker reads "Card 4111 1111 1111 1111".',
        {},
        { prompt_tokens: 700, completion_tokens: 25 },
      ),
    }));
    const photo = jpegOf(800, 600);
    const created = await upload(engine, engine.apiKey, [{ bytes: photo, name: 'mug.jpg' }]);
    const event = await eventOf(engine, engine.apiKey, created.body.id);
    expect(event.type).toBe('media.understood');
    expect(event.data).toMatchObject({
      type: 'image/jpeg',
      width: 800,
      height: 600,
      text: 'A mug with a chipped handle. A sticker reads "Card [card ending 1111]".',
    });
    const sent = model.requests.at(-1)! as unknown as { model: string; messages: { role: string; content: unknown }[] };
    expect(sent.model).toBe('vision-model');
    const parts = sent.messages.at(-1)!.content as { type: string; image_url?: { url: string } }[];
    expect(parts.find((part) => part.type === 'image_url')?.image_url?.url).toBe(
      `data:image/jpeg;base64,${photo.toString('base64')}`,
    );
    expect((await request(`${engine.url}/v1/media/${created.body.id}`, { token: engine.apiKey })).body.text).toContain(
      'chipped handle',
    );
    // The model's tokens count in the account's usage.
    expect((await request(`${engine.url}/v1/usage`, { token: engine.apiKey })).body.llm).toMatchObject({
      prompt_tokens: 700,
      completion_tokens: 25,
      requests: 1,
    });
  });

  it('fails the medium with the reason when the model cannot answer, and asks no model about a PDF', async () => {
    model.answer(() => ({ status: 400, body: { error: { message: 'this model cannot see images' } } }));
    const created = await upload(engine, engine.apiKey, [{ bytes: pngOf(200, 200) }]);
    const event = await eventOf(engine, engine.apiKey, created.body.id);
    expect(event.type).toBe('media.failed');
    expect(event.data.reason).toContain('The model could not describe the picture');
    const asked = model.requests.length;
    const document = await upload(engine, engine.apiKey, [{ bytes: twoPagePdf }]);
    expect((await eventOf(engine, engine.apiKey, document.body.id)).type).toBe('media.understood');
    expect(model.requests.length).toBe(asked);
  });
});
