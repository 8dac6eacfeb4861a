import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RouterContext } from '@koa/router';
import { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { ApiRoutes } from '../../shared/server/index.ts';

const ASSET_NAME = /^[\w-]+\.js$/;

/**
 * Serves the built widget: `/widget.js` (the loader, short cache so fixes reach pages quickly)
 * and `/widget/<chunk>.js` (content-hashed chunks, cached for a year; `app.js` short like the loader).
 */
export function addWidgetAssetRoutes(routes: ApiRoutes, assetsDir: string): void {
  const send = async (ctx: RouterContext, name: string, cacheSeconds: number) => {
    if (!ASSET_NAME.test(name)) throw new ParleyError('not_found', `No widget file ${name}.`);
    const body = await readFile(join(assetsDir, name)).catch(() => undefined);
    if (!body) throw new ParleyError('not_found', `No widget file ${name}; has the widget been built (npm run build)?`);
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.set('Cache-Control', `public, max-age=${cacheSeconds}`);
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.body = body;
  };
  const script = { description: 'The script.', schema: z.string(), contentType: 'application/javascript' };
  routes
    .add({ method: 'get', path: '/widget.js', tag: 'Widget files', summary: 'The loader for the script tag', responses: { 200: script }, errors: ['not_found'] }, (ctx) => send(ctx, 'widget.js', 300))
    .add(
      { method: 'get', path: '/widget/:file', tag: 'Widget files', summary: 'The chat app and its chunks', params: z.strictObject({ file: z.string().max(100) }), responses: { 200: script }, errors: ['not_found'] },
      (ctx, { params }) => send(ctx, params.file, params.file === 'app.js' ? 300 : 31_536_000),
    );
}
