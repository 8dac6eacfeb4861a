import Router, { type RouterContext, type RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import type { ErrorCode } from '../errors.ts';
import { parseWith, readJson, readQuery } from './http.ts';
import { readMultipart, type UploadedFile } from './media.ts';

/**
 * One declaration per route: the same zod schemas validate the request, type the handler's
 * input, and describe the route in the OpenAPI document. Handlers never see unvalidated input.
 */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** Defaults to `application/json`. */
  contentType?: string;
  /** Other media types the same answer may come in (e.g. `text/plain` for an export). */
  alternatives?: Record<string, z.ZodType>;
}

/** A `multipart/form-data` body: its text fields (validated), its file fields (for the document) and its size limit. */
export interface MultipartSpec<M extends z.ZodType | undefined = z.ZodType | undefined> {
  fields: M & z.ZodType;
  /** Each file field's name (`attachments[]` may come several times) and what it holds. */
  files: Record<string, string>;
  /** The largest body read, files included, in bytes (over it: 413). */
  limit: number;
}

export interface RouteSpec<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  M extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: HttpMethod;
  /** Koa-style path, e.g. `/v1/conversations/:id/messages`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** Which credential the route takes; the name of a security scheme of the document, or none. */
  security?: string | undefined;
  params?: P;
  query?: Q;
  body?: B;
  /** Largest body the route reads, in bytes. */
  bodyLimit?: number;
  /** The body may also come as an HTML form (`application/x-www-form-urlencoded`); fields are text. */
  form?: boolean;
  /**
   * The route takes `multipart/form-data` (with `body` too, JSON or multipart by Content-Type): the
   * text fields are validated like a body and given as `body`, the files as `files`.
   */
  multipart?: MultipartSpec<M> | undefined;
  responses: Record<number, ResponseSpec>;
  /** The error codes this route may answer with (besides those every route may give). */
  errors?: ErrorCode[];
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A multipart route's body is its text fields; with a JSON body too, either. */
type BodyOf<B, M> = M extends z.ZodType ? (B extends z.ZodType ? Parsed<B> | Parsed<M> : Parsed<M>) : Parsed<B>;

export interface RouteInput<P, Q, B, M = undefined> {
  params: Parsed<P>;
  query: Parsed<Q>;
  body: BodyOf<B, M>;
  /** The files of a multipart body (none for any other). */
  files: UploadedFile[];
}

export type RouteHandler<State, P, Q, B, M = undefined> = (
  ctx: RouterContext<State>,
  input: RouteInput<P, Q, B, M>,
) => unknown;

export class ApiRoutes<State extends object = Record<string, unknown>> {
  readonly router: Router<State>;
  readonly specs: RouteSpec[] = [];

  constructor(options: { middleware?: RouterMiddleware<State>[] } = {}) {
    // One spelling per route (case and trailing slash matter), so that a path names one resource:
    // an Idempotency-Key kept for /v1/conversations is not dodged by /V1/Conversations/.
    this.router = new Router<State>({ sensitive: true, strict: true });
    for (const middleware of options.middleware ?? []) this.router.use(middleware);
  }

  /**
   * Loads what a path parameter names, once per request and before the handler, for every route
   * with that parameter (as @koa/router's `param`): e.g. the inbox of `:inbox_identifier` into
   * `ctx.state`. `value` is raw: check it with `parseWith` before use.
   */
  param(name: string, load: (value: string, ctx: RouterContext<State>) => Promise<void>): this {
    this.router.param(name, async (value, ctx, next) => {
      await load(value, ctx as RouterContext<State>);
      return next();
    });
    return this;
  }

  add<
    P extends z.ZodType | undefined = undefined,
    Q extends z.ZodType | undefined = undefined,
    B extends z.ZodType | undefined = undefined,
    M extends z.ZodType | undefined = undefined,
  >(spec: RouteSpec<P, Q, B, M>, handler: RouteHandler<State, P, Q, B, M>): this {
    this.specs.push(spec as RouteSpec);
    this.router[spec.method](spec.path, async (ctx) => {
      const params = (spec.params ? parseWith(spec.params, ctx.params, 'path') : undefined) as Parsed<P>;
      const query = (spec.query ? readQuery(ctx, spec.query) : undefined) as Parsed<Q>;
      // A multipart route reads multipart unless it takes JSON too and this body is not multipart.
      const form =
        spec.multipart && (!spec.body || ctx.is('multipart/form-data'))
          ? await readMultipart(ctx, spec.multipart.limit)
          : undefined;
      const body = (
        form
          ? parseWith(spec.multipart!.fields, form.fields, 'form')
          : spec.body
            ? await readJson(ctx, spec.body, spec.bodyLimit, spec.form)
            : undefined
      ) as BodyOf<B, M>;
      await handler(ctx, { params, query, body, files: form?.files ?? [] });
    });
    return this;
  }
}
