import type { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../errors.ts';
import type { MultipartSpec, RouteSpec } from './api-routes.ts';
import { SchemaComponents } from './openapi-components.ts';

export interface OpenApiOptions {
  title: string;
  version: string;
  description: string;
  securitySchemes: Record<
    string,
    | { type: 'http'; scheme: 'bearer'; description: string }
    | { type: 'apiKey'; in: 'header'; name: string; description: string }
  >;
  /** Error codes that any route may answer with (bad credential, limits, bad JSON…). */
  commonErrors: ErrorCode[];
  /** Routes whose errors use the helpdesk `bad_request_error` body instead of `{error}`. */
  isDeskRoute?: (path: string) => boolean;
  /** Routes that answer a failed validation with 422 `unprocessable` instead of 400 `invalid_request` (SPEC Errors rule 1). */
  validationIs422?: (path: string) => boolean;
  /** The request header that makes a keyed POST safe to retry, documented on each of them. */
  idempotencyHeader?: object;
  /** The security schemes whose POSTs take the idempotency header (and may answer its errors); unset: every keyed POST's. */
  idempotentSchemes?: readonly string[];
  /** Headers sent on every answer of routes that have security (e.g. rate-limit headers). */
  commonHeaders?: Record<string, { description: string; schema: object }>;
  routes: readonly RouteSpec[];
}

type JsonSchema = Record<string, unknown>;

const ErrorBodySchema: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
        message: { type: 'string' },
        details: {},
      },
    },
  },
};

const DeskErrorSchema: JsonSchema = {
  type: 'object',
  description: "The helpdesk routes' error body (bad_request_error).",
  required: ['description', 'errors'],
  properties: {
    description: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'message', 'code'],
        properties: {
          field: { type: 'string' },
          message: { type: 'string' },
          code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
        },
      },
    },
  },
};

/**
 * Builds an OpenAPI 3.1 document from route declarations, so the document and the validation
 * can never disagree: both come from the same zod schemas.
 */
export function buildOpenApi(options: OpenApiOptions): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  const components = new SchemaComponents();
  for (const route of options.routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const parameters: object[] = [
      ...parametersOf(route.params, 'path', components),
      ...parametersOf(route.query, 'query', components),
    ];
    const responses: Record<string, unknown> = {};
    const headers = route.security ? headerRefs(options.commonHeaders) : undefined;
    for (const [status, response] of Object.entries(route.responses)) {
      const content: Record<string, unknown> = {};
      if (response.schema)
        content[response.contentType ?? 'application/json'] = {
          schema: components.describe(response.schema, 'output'),
        };
      for (const [type, schema] of Object.entries(response.alternatives ?? {}))
        content[type] = { schema: components.describe(schema, 'output') };
      responses[status] = {
        description: response.description,
        ...(headers ? { headers } : {}),
        ...(Object.keys(content).length ? { content } : {}),
      };
    }
    const keyedPost = Boolean(route.security) && route.method === 'post';
    const idempotent = keyedPost && (!options.idempotentSchemes || options.idempotentSchemes.includes(route.security!));
    if (idempotent && options.idempotencyHeader) parameters.push(options.idempotencyHeader);
    Object.assign(responses, errorResponses(route, options, idempotent, headers));
    (paths[path] ??= {})[route.method] = {
      operationId: operationId(route),
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      ...(route.security ? { security: [{ [route.security]: [] }] } : { security: [] }),
      ...(parameters.length ? { parameters } : {}),
      ...(route.body || route.multipart
        ? {
            requestBody: {
              required: true,
              content: {
                ...(route.body ? bodyContent(route.body, route.form, components) : {}),
                ...(route.multipart ? multipartContent(route.multipart, components) : {}),
              },
            },
          }
        : {}),
      responses,
    };
  }
  const document = {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version, description: options.description },
    paths,
    components: {
      securitySchemes: options.securitySchemes,
      ...(options.commonHeaders ? { headers: options.commonHeaders } : {}),
    },
  };
  return components.fold(document, { Error: ErrorBodySchema, DeskError: DeskErrorSchema });
}

/** The route's error answers by status: the common errors that apply to it and its own (a failed validation as 422 where the document says so). */
function errorResponses(
  route: RouteSpec,
  options: OpenApiOptions,
  idempotent: boolean,
  headers: Record<string, unknown> | undefined,
): Record<number, unknown> {
  const common = options.commonErrors.filter((code) => errorApplies(code, route, idempotent));
  const validation422 = options.validationIs422?.(route.path) ?? false;
  const errorCodes = [
    ...new Set(
      [...common, ...(route.errors ?? [])].map((code) =>
        validation422 && code === 'invalid_request' ? 'unprocessable' : code,
      ),
    ),
  ];
  const schema = {
    $ref: options.isDeskRoute?.(route.path) ? '#/components/schemas/DeskError' : '#/components/schemas/Error',
  };
  const responses: Record<number, unknown> = {};
  for (const [status, codes] of groupByStatus(errorCodes)) {
    responses[status] = {
      description: `Error: ${codes.join(', ')}`,
      ...(headers ? { headers } : {}),
      content: { 'application/json': { schema } },
    };
  }
  return responses;
}

function bodyContent(
  body: z.ZodType,
  form: boolean | undefined,
  components: SchemaComponents,
): Record<string, { schema: JsonSchema }> {
  const schema = components.describe(body, 'input');
  return form
    ? { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } }
    : { 'application/json': { schema } };
}

/** A multipart body: its text fields' schema, with each file field as binary (an array where the name ends in `[]`). */
function multipartContent(
  multipart: MultipartSpec,
  components: SchemaComponents,
): Record<string, { schema: JsonSchema }> {
  const fields = components.describe(multipart.fields, 'input') as { properties?: Record<string, JsonSchema> };
  const files = Object.fromEntries(
    Object.entries(multipart.files).map(([name, description]) => {
      const file = { type: 'string', contentMediaType: 'application/octet-stream' };
      return [name, name.endsWith('[]') ? { type: 'array', items: file, description } : { ...file, description }];
    }),
  );
  return {
    'multipart/form-data': { schema: { ...fields, type: 'object', properties: { ...fields.properties, ...files } } },
  };
}

/** Whether a common error can come from a route: credential and limit errors only from keyed routes, idempotency errors only from keyed POSTs that take the header, body errors only with a body. */
function errorApplies(code: ErrorCode, route: RouteSpec, idempotent: boolean): boolean {
  if (code === 'unauthorized' || code === 'rate_limited' || code === 'account_suspended')
    return Boolean(route.security);
  if (code === 'idempotency_key_in_use' || code === 'idempotency_key_reused') return idempotent;
  if (code === 'invalid_json' || code === 'unsupported_media_type' || code === 'payload_too_large')
    return Boolean(route.body) || route.method === 'post';
  return true;
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query', components: SchemaComponents): object[] {
  if (!schema) return [];
  const described = components.describe(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(described.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (described.required ?? []).includes(name),
    ...(typeof property['description'] === 'string' ? { description: property['description'] } : {}),
    schema: property,
  }));
}

function headerRefs(headers: OpenApiOptions['commonHeaders']): Record<string, unknown> | undefined {
  if (!headers) return undefined;
  return Object.fromEntries(Object.keys(headers).map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

function groupByStatus(codes: ErrorCode[]): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

function operationId(route: RouteSpec): string {
  const words = route.path
    .split('/')
    .filter((part) => part && part !== 'v1')
    .map((part) => (part.startsWith(':') ? 'by-' + part.slice(1) : part));
  return [route.method, ...words].join('-').replace(/[^a-zA-Z0-9]+(.)/g, (_match, char: string) => char.toUpperCase());
}
