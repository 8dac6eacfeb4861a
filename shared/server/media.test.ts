import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParleyError } from '../errors.ts';
import { errorBoundary } from './http.ts';
import { logger } from '../../test/stack.ts';
import { inspectMedia, readMultipart } from './media.ts';
import { gifOf, jpegOf, pdf, pngOf, webpOf } from '../../test/media-fixtures.ts';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof ParleyError ? error.code : 'not a ParleyError';
  }
}

describe('inspectMedia', () => {
  it('recognises PNG, JPEG, GIF, WebP and PDF by their bytes, with the images’ dimensions', () => {
    expect(inspectMedia(pngOf(640, 480))).toEqual({ type: 'image/png', width: 640, height: 480, size: 33 });
    expect(inspectMedia(jpegOf(1024, 768))).toMatchObject({ type: 'image/jpeg', width: 1024, height: 768 });
    expect(inspectMedia(gifOf(32, 16))).toMatchObject({ type: 'image/gif', width: 32, height: 16 });
    expect(inspectMedia(webpOf(300, 200))).toMatchObject({ type: 'image/webp', width: 300, height: 200 });
    expect(inspectMedia(pdf)).toEqual({ type: 'application/pdf', size: pdf.length });
  });

  it('refuses SVG, HTML, executables and empty files whatever they are called', () => {
    expect(codeOf(() => inspectMedia(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')))).toBe(
      'unsupported_media_type',
    );
    expect(codeOf(() => inspectMedia(Buffer.from('<!doctype html><script>alert(1)</script>')))).toBe(
      'unsupported_media_type',
    );
    expect(codeOf(() => inspectMedia(Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03])))).toBe('unsupported_media_type');
    expect(codeOf(() => inspectMedia(Buffer.alloc(0)))).toBe('invalid_request');
  });

  it('refuses a small image that would unpack to a huge picture (a decompression bomb)', () => {
    expect(codeOf(() => inspectMedia(pngOf(100_000, 100_000)))).toBe('unprocessable');
    expect(codeOf(() => inspectMedia(pngOf(20_000, 10)))).toBe('unprocessable');
    expect(codeOf(() => inspectMedia(jpegOf(9_000, 9_000)))).toBe('unprocessable');
    expect(codeOf(() => inspectMedia(pngOf(0, 10)))).toBe('unprocessable');
    expect(codeOf(() => inspectMedia(pngOf(6_000, 6_000)))).toBe(undefined);
  });

  it('refuses a file over the limit', () => {
    expect(codeOf(() => inspectMedia(Buffer.concat([pdf, Buffer.alloc(100)]), 64))).toBe('payload_too_large');
  });
});

describe('readMultipart over real HTTP', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const app = new Koa();
    app.use(errorBoundary(logger));
    app.use(async (ctx) => {
      const { fields, files } = await readMultipart(ctx, 4096);
      ctx.body = {
        fields,
        files: files.map((file) => ({
          field: file.field,
          name: file.name,
          size: file.bytes.length,
          type: inspectMedia(file.bytes).type,
        })),
      };
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads text fields and several files under one name, as Chatwoot clients send attachments[]', async () => {
    const form = new FormData();
    form.append('content', 'Here is the broken mug');
    form.append('attachments[]', new Blob([new Uint8Array(pngOf(10, 10))]), 'mug.png');
    form.append('attachments[]', new Blob([new Uint8Array(pdf)]), 'receipt.pdf');
    const response = await fetch(url, { method: 'POST', body: form });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      fields: { content: 'Here is the broken mug' },
      files: [
        { field: 'attachments[]', name: 'mug.png', size: 33, type: 'image/png' },
        { field: 'attachments[]', name: 'receipt.pdf', size: pdf.length, type: 'application/pdf' },
      ],
    });
  });

  it('refuses a compressed body without inflating it, a body over the limit, and a body that is not multipart', async () => {
    const form = new FormData();
    form.append('attachments[]', new Blob([new Uint8Array(1_000_000)]), 'zeros.png');
    const multipart = new Request(url, { method: 'POST', body: form });
    const gzipped = gzipSync(Buffer.from(await multipart.arrayBuffer()));
    const compressed = await fetch(url, {
      method: 'POST',
      body: gzipped,
      headers: { 'content-type': multipart.headers.get('content-type')!, 'content-encoding': 'gzip' },
    });
    expect(compressed.status).toBe(415);
    expect((await compressed.json()).error.code).toBe('unsupported_media_type');

    const big = await fetch(url, { method: 'POST', body: form });
    expect(big.status).toBe(413);

    const json = await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(415);
  });

  it('refuses a text field given twice', async () => {
    const form = new FormData();
    form.append('content', 'a');
    form.append('content', 'b');
    const response = await fetch(url, { method: 'POST', body: form });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('invalid_request');
  });
});
