import { get } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDGET_ASSETS_DIR } from '../index.ts';
import { startStack, type TestStack } from '../../test/stack.ts';

/** A plain GET with exactly these headers (fetch would add and undo its own Accept-Encoding). */
function fetchRaw(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}

describe('the widget files', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.stop());

  it.each([
    ['/widget.js', 'widget.js'],
    ['/widget/app.js', 'app.js'],
  ])(
    'serves %s brotli- or gzip-compressed as the browser asks, the same bytes as built, with an ETag that gives a 304',
    async (path, file) => {
      const built = await readFile(join(WIDGET_ASSETS_DIR, file));

      const plain = await fetchRaw(stack.url + path);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(built)).toBe(true);
      expect(plain.headers['vary']).toMatch(/Accept-Encoding/i);
      const etag = plain.headers['etag'] as string;
      expect(etag).toMatch(/^"[\w-]{27}"$/);

      const br = await fetchRaw(stack.url + path, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.body).equals(built)).toBe(true);
      expect(br.body.length).toBeLessThan(built.length / 2);
      expect(br.headers['etag']).toBe(etag);

      const gzip = await fetchRaw(stack.url + path, { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.body).equals(built)).toBe(true);

      const again = await fetchRaw(stack.url + path, { 'if-none-match': etag, 'accept-encoding': 'br' });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect((await fetchRaw(stack.url + path, { 'if-none-match': '"something-else"' })).status).toBe(200);
    },
  );

  it('refuses names that are not widget files with 404, never reading outside the folder', async () => {
    for (const path of [
      '/widget/..%2F..%2Fpackage.json',
      '/widget/app.css',
      '/widget/no-such-chunk.js',
      '/widget/.env',
    ]) {
      const response = await fetchRaw(stack.url + path);
      expect(response.status, path).toBe(404);
      expect(JSON.parse(response.body.toString()).error.code).toBe('not_found');
    }
  });
});
