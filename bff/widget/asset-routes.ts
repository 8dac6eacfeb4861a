import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
import type { RouterContext } from '@koa/router';
import { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { ApiRoutes } from '../../shared/server/index.ts';

const ASSET_NAME = /^[\w-]+\.js$/;

interface Encoded {
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * Sends built scripts from `assetsDir`: each with an ETag (a browser revalidates with a 304 once
 * its copy is stale), brotli- or gzip-compressed when the browser takes it; the compressed copies
 * are made once per version of a file, off the event loop (zlib's thread pool).
 */
export function scriptSender(assetsDir: string, what: string) {
  const encoded = new Map<string, Promise<Encoded>>();
  const encode = (body: Buffer): Promise<Encoded> => {
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    let file = encoded.get(etag);
    if (!file) {
      file = Promise.all([
        brotliAsync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
        gzipAsync(body, { level: 9 }),
      ]).then(([br, gzipped]) => ({ etag, identity: body, br, gzip: gzipped }));
      encoded.set(etag, file);
    }
    return file;
  };
  return async (ctx: RouterContext, name: string, cacheSeconds: number, crossOrigin = true) => {
    if (!ASSET_NAME.test(name)) throw new ParleyError('not_found', `No ${what} file ${name}.`);
    const body = await readFile(join(assetsDir, name)).catch(() => undefined);
    if (!body) throw new ParleyError('not_found', `No ${what} file ${name}; has it been built (npm run build)?`);
    const file = await encode(body);
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.set('Cache-Control', `public, max-age=${cacheSeconds}`);
    if (crossOrigin) ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('ETag', file.etag);
    ctx.vary('Accept-Encoding');
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    // Brotli whenever the browser takes it (smaller), else gzip, else the file as it is.
    const encoding = (['br', 'gzip'] as const).find((candidate) => ctx.acceptsEncodings(candidate) === candidate);
    if (encoding) {
      ctx.set('Content-Encoding', encoding);
      ctx.body = file[encoding];
    } else {
      ctx.body = file.identity;
    }
  };
}

/**
 * Serves the built widget: `/widget.js` (the loader, short cache so fixes reach pages quickly)
 * and `/widget/<chunk>.js` (content-hashed chunks, cached for a year; `app.js` short like the loader).
 */
export function addWidgetAssetRoutes(routes: ApiRoutes, assetsDir: string): void {
  const send = scriptSender(assetsDir, 'widget');
  const script = { description: 'The script.', schema: z.string(), contentType: 'application/javascript' };
  routes
    .add(
      {
        method: 'get',
        path: '/widget.js',
        tag: 'Widget files',
        summary: 'The loader for the script tag',
        responses: { 200: script },
        errors: ['not_found'],
      },
      (ctx) => send(ctx, 'widget.js', 300),
    )
    .add(
      {
        method: 'get',
        path: '/widget/:file',
        tag: 'Widget files',
        summary: 'The chat app and its chunks',
        params: z.strictObject({ file: z.string().max(100) }),
        responses: { 200: script },
        errors: ['not_found'],
      },
      (ctx, { params }) => send(ctx, params.file, params.file === 'app.js' ? 300 : 31_536_000),
    );
}
