import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oggOpusOf, wavOf, webmOf } from '../../test/recording-fixtures.ts';
import { DRIVERS, startEngine, type TestEngine } from '../../test/stack.ts';

async function upload(engine: TestEngine, bytes: Buffer, name: string, key = engine.apiKey) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const response = await fetch(`${engine.url}/v1/media`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: response.status, body: (await response.json()) as any };
}

const countMedia = async (engine: TestEngine) =>
  (await engine.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM media'))[0]!.n;

const MB = 1024 * 1024;

describe.each(DRIVERS)('refused voice notes and videos on $name', (driver) => {
  let engine: TestEngine;
  beforeAll(async () => {
    // The account may keep 3 MB of media in all, so that the cap is reached within two uploads.
    engine = await startEngine(driver, undefined, { media: { maxBytes: 20 * MB, storageMaxBytes: 3 * MB } });
  });
  afterAll(() => engine?.stop());

  it('refuses a file named .ogg that is not audio (415) and keeps nothing', async () => {
    const before = await countMedia(engine);
    const refused = await upload(engine, Buffer.from('<html><script>alert(1)</script></html>'), 'voice-note.ogg');
    expect(refused.status).toBe(415);
    expect(refused.body.error.code).toBe('unsupported_media_type');
    expect(refused.body.error.message).toContain('Ogg/Opus');
    expect(await countMedia(engine)).toBe(before);
  });

  it('refuses a voice note over five minutes (422) and one over 10 MB (413), and keeps nothing', async () => {
    const before = await countMedia(engine);
    const overlong = await upload(engine, oggOpusOf(301), 'long.ogg');
    expect(overlong.status).toBe(422);
    expect(overlong.body.error).toMatchObject({
      code: 'unprocessable',
      message: expect.stringContaining('300 seconds'),
    });
    const oversize = await upload(engine, Buffer.concat([webmOf('audio'), Buffer.alloc(10 * MB)]), 'big.webm');
    expect(oversize.status).toBe(413);
    expect(oversize.body.error.code).toBe('payload_too_large');
    expect(await countMedia(engine)).toBe(before);
  });

  it("refuses an upload past the account's storage cap (413, details.limit account_storage) and keeps nothing", async () => {
    // 1.9 MB of WAV: the first fits within 3 MB, the second does not.
    const note = wavOf(60, 16_000);
    expect((await upload(engine, note, 'first.wav')).status).toBe(201);
    const before = await countMedia(engine);
    const refused = await upload(engine, note, 'second.wav');
    expect(refused.status).toBe(413);
    expect(refused.body.error).toMatchObject({
      code: 'payload_too_large',
      message: expect.stringContaining('storage is full'),
      details: { limit: 'account_storage', max_bytes: 3 * MB },
    });
    expect(await countMedia(engine)).toBe(before);
    // A small note still fits.
    expect((await upload(engine, oggOpusOf(3), 'small.ogg')).status).toBe(201);
  });

  it('serves a voice note with its type and an extension of that type, as a download', async () => {
    const created = await upload(engine, oggOpusOf(2), 'note.txt');
    const response = await fetch(`${engine.url}/v1/media/${created.body.id}/content`, {
      headers: { authorization: `Bearer ${engine.apiKey}` },
    });
    expect(response.headers.get('content-type')).toBe('audio/ogg');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${created.body.id}.ogg"`);
  });
});
