import Koa from 'koa';
import type Router from '@koa/router';
import { z } from 'zod';
import { errorBoundary, type ApiRoutes, type Logger } from '../../shared/server/index.ts';
import { crossOrigin } from '../widget/cors.ts';
import { bffOpenApi, helpdeskOpenApi, isDeskRoute } from './openapi.ts';
import type { Metrics } from './metrics.ts';

export interface HttpAppDeps {
  /** The routes that need no session; the two OpenAPI documents are added to them. */
  open: ApiRoutes;
  /** The other surfaces, in the order their routes are tried. */
  surfaces: readonly ApiRoutes<any>[];
  /** Routes a host adds after the BFF's own. */
  extraRouters: readonly Router[];
  metrics: Metrics;
  logger: Logger;
  trustProxyHops: number;
}

/** Adds the BFF's and the helpdesk's OpenAPI documents to `open`; each is written once, when first asked for. */
function addDocumentRoutes(open: ApiRoutes, routes: readonly ApiRoutes<any>[]): () => Record<string, unknown> {
  const specs = () => routes.flatMap((surface) => surface.specs);
  let document: Record<string, unknown> | undefined;
  const openApi = () => (document ??= bffOpenApi(specs()));
  let helpdeskDocument: Record<string, unknown> | undefined;
  const documentSchema = z.record(z.string(), z.unknown());
  open
    .add(
      {
        method: 'get',
        path: '/openapi.json',
        tag: 'Documents',
        summary: 'This document',
        responses: { 200: { description: 'The OpenAPI 3.1 description of the BFF.', schema: documentSchema } },
      },
      (ctx) => {
        ctx.body = openApi();
      },
    )
    .add(
      {
        method: 'get',
        path: '/helpdesk/openapi.json',
        tag: 'Documents',
        summary: "The helpdesk's document",
        responses: {
          200: {
            description: 'The OpenAPI 3.1.0 description of the helpdesk (version 1.1.0).',
            schema: documentSchema,
          },
        },
      },
      (ctx) => {
        ctx.body = helpdeskDocument ??= helpdeskOpenApi(specs());
      },
    );
  return openApi;
}

/** The BFF's Koa app: proxy trust, response metrics, the error boundary, CORS, then every router with `allowedMethods`. */
export function createHttpApp({ open, surfaces, extraRouters, metrics, logger, trustProxyHops }: HttpAppDeps): {
  app: Koa;
  openApi: () => Record<string, unknown>;
} {
  const openApi = addDocumentRoutes(open, [open, ...surfaces]);
  const app = new Koa();
  // Behind the proxies TRUST_PROXY_HOPS names, the scheme is theirs (X-Forwarded-Proto): HSTS is
  // sent when they took the request over https. Client addresses are read by clientAddress alone.
  app.proxy = trustProxyHops > 0;
  // Outermost, so that it sees every answer as it leaves, errors included.
  app.use(async (ctx, next) => {
    try {
      await next();
    } finally {
      metrics.responses.inc({ status: `${String(ctx.status).charAt(0)}xx` });
      if (ctx.status === 429) metrics.refusals.inc({ surface: 'http' });
    }
  });
  app.use(errorBoundary(logger, isDeskRoute));
  app.use(crossOrigin());
  const routers: Router<any>[] = [open.router, ...surfaces.map((surface) => surface.router), ...extraRouters];
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: true }));
  }
  return { app, openApi };
}
