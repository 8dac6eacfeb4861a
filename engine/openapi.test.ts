import { randomUUID } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
// Ajv is not a direct dependency: it comes with @seriousme/openapi-schema-validator (which is built
// on it) and is resolvable from the project, so the response schemas are checked as JSON Schema
// 2020-12, the dialect of OpenAPI 3.1, rather than with the zod schemas they were made from.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../shared/index.ts';
import { DRIVERS, request, startEngine, type TestEngine } from '../test/stack.ts';
import { createAccount, issueApiKey, setAccountRateLimit } from './index.ts';

interface MediaType {
  schema?: Record<string, unknown>;
}
interface ResponseObject {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaType>;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}
interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
}
interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { type: string; scheme?: string }> };
}

type Method = 'get' | 'post';
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The routes SPEC promises, as `method path` with OpenAPI path templates. */
const SPEC_ROUTES = [
  'post /v1/conversations',
  'post /v1/conversations/{id}/messages',
  'post /v1/conversations/{id}/action-results',
  'post /v1/conversations/{id}/handover',
  'post /v1/conversations/{id}/handback',
  'post /v1/conversations/{id}/close',
  'post /v1/conversations/{id}/human-messages',
  'post /v1/conversations/{id}/voice-sessions',
  'get /v1/conversations/{id}/transcript',
  'get /v1/conversations/{id}/export',
  'get /v1/conversations/{id}/quality',
  'post /v1/widget-sessions',
  'get /v1/events',
  'get /v1/me',
  'get /v1/openapi.json',
];

/** A well-formed conversation id that no conversation has. */
const NO_CONVERSATION = `cnv_${'0'.repeat(24)}`;

/** One real answer, as the contract check needs it. */
interface Observed {
  method: Method;
  template: string;
  status: number;
  headers: Headers;
  body: unknown;
}

/** A JSON pointer (as a URI fragment) into the document, which Ajv knows as `openapi`. */
const pointer = (...parts: string[]) =>
  'openapi#/' + parts.map((part) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

describe.each(DRIVERS)('the OpenAPI document of the engine on $name', (driver) => {
  let engine: TestEngine;
  let document: OpenApiDocument;
  let ajv: Ajv2020;

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => HTTP_METHODS.has(method))
        .map(([method, operation]) => ({ method, path, operation })),
    );
  const operationOf = (method: string, template: string): Operation | undefined => document.paths[template]?.[method];
  const isKeyed = (operation: Operation) => (operation.security ?? []).some((requirement) => 'apiKey' in requirement);
  /** The operator's routes take the installation's operator token, never an API key. */
  const isOperator = (template: string) => template.startsWith('/operator/');
  const urlOf = (template: string, id = NO_CONVERSATION) => engine.url + template.replace('{id}', id);

  /** Validates `value` against the schema at `ref`; gives the problems, or [] when it matches. */
  const schemaProblems = (ref: string, value: unknown): string[] => {
    const validate = ajv.getSchema(ref);
    if (!validate) return [`no schema at ${ref}`];
    return validate(value) ? [] : [ajv.errorsText(validate.errors, { separator: '; ' })];
  };

  /**
   * Calls a route of the document (`template` with `{id}` filled in), with the API key unless a
   * token is given (`token: ''` sends none), and records the answer for `contractProblems`.
   */
  const call = async (
    seen: Observed[],
    method: Method,
    template: string,
    options: NonNullable<Parameters<typeof request>[1]> & { id?: string; query?: string } = {},
  ) => {
    const { id, query = '', ...rest } = options;
    const response = await request(urlOf(template, id) + query, {
      method: method.toUpperCase(),
      token: engine.apiKey,
      ...rest,
    });
    seen.push({ method, template, status: response.status, headers: response.headers, body: response.body });
    return response;
  };

  /** Everything in which the real answers disagree with the document, as readable lines. */
  const contractProblems = (seen: Observed[]): string[] =>
    seen.flatMap(({ method, template, status, headers, body }) => {
      const where = `${method.toUpperCase()} ${template} → ${status}`;
      const operation = operationOf(method, template);
      if (!operation) return [`${where}: the document has no such operation`];
      const documented = operation.responses[String(status)];
      if (!documented)
        return [
          `${where}: the status is not documented for the operation (it lists ${Object.keys(operation.responses).join(', ')})`,
        ];
      const problems: string[] = [];
      const contentType = (headers.get('content-type') ?? '').split(';')[0]!.trim();
      const documentedTypes = Object.keys(documented.content ?? {});
      if (!documentedTypes.includes(contentType)) {
        problems.push(
          `${where}: answered ${contentType || 'with no content type'}, the document gives ${documentedTypes.length ? documentedTypes.join(', ') : 'no content'} for it`,
        );
      } else if (contentType === 'application/json') {
        const ref = pointer(
          'paths',
          template,
          method,
          'responses',
          String(status),
          'content',
          'application/json',
          'schema',
        );
        problems.push(
          ...schemaProblems(ref, body).map(
            (problem) => `${where}: the body does not match the documented schema: ${problem}`,
          ),
        );
      }
      if (status >= 400) {
        problems.push(
          ...schemaProblems(pointer('components', 'schemas', 'Error'), body).map(
            (problem) => `${where}: not the Error schema: ${problem}`,
          ),
        );
        const error = (body as { error?: { code?: unknown } } | null)?.error;
        const keys = typeof body === 'object' && body !== null ? Object.keys(body) : [];
        const errorKeys = typeof error === 'object' && error !== null ? Object.keys(error) : [];
        if (keys.join() !== 'error' || !errorKeys.every((key) => ['code', 'message', 'details'].includes(key))) {
          problems.push(`${where}: not exactly {error: {code, message, details?}}: ${JSON.stringify(body)}`);
        }
        const code = error?.code;
        if (typeof code !== 'string' || ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== status)
          problems.push(`${where}: the error code ${String(code)} does not go with this status`);
      }
      // Every request is counted (SPEC "Limits"), a 401 too: every answer carries the documented headers.
      for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
        if (!documented.headers?.[name]) problems.push(`${where}: the document does not give the header ${name}`);
        if (!/^\d+$/.test(headers.get(name) ?? ''))
          problems.push(`${where}: the header ${name} is missing or not an integer (${String(headers.get(name))})`);
      }
      return problems;
    });

  beforeAll(async () => {
    engine = await startEngine(driver);
    const served = await request(`${engine.url}/v1/openapi.json`);
    document = served.body as OpenApiDocument;
    ajv = new Ajv2020({ allErrors: true, strict: false });
    // zod writes .startsWith('evt_') as {format: 'starts_with', pattern: '^evt_.*'}: the pattern does the check.
    ajv.addFormat('starts_with', true);
    ajv.addSchema(structuredClone(document) as unknown as Record<string, unknown>, 'openapi');
  });
  afterAll(() => engine?.stop());

  it('is served at GET /v1/openapi.json without a credential, as JSON that is a valid OpenAPI 3.1.0 document', async () => {
    const response = await request(`${engine.url}/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(typeof response.body).toBe('object');
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body).toEqual(engine.engine.openApi());

    const validator = new Validator();
    const result = await validator.validate(structuredClone(response.body) as Record<string, unknown>);
    expect(result.valid, `the document is not valid OpenAPI: ${JSON.stringify(result.errors, null, 2)}`).toBe(true);
    expect(validator.version).toBe('3.1');

    // The validator does reject a broken document (info needs a title).
    const broken = structuredClone(response.body) as { info: Record<string, unknown> };
    delete broken.info['title'];
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('lists exactly the routes the engine serves, no more and no fewer', () => {
    const served = engine.engine
      .servedRoutes()
      .map(({ method, path }) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = operations().map(({ method, path }) => `${method} ${path}`);
    expect(served.length).toBeGreaterThanOrEqual(SPEC_ROUTES.length);
    expect(new Set(served).size).toBe(served.length);
    expect(new Set(documented)).toEqual(new Set(served));
  });

  it('lists every route of the SPEC', () => {
    const documented = operations().map(({ method, path }) => `${method} ${path}`);
    expect(SPEC_ROUTES.filter((route) => !documented.includes(route))).toEqual([]);
  });

  it('answers every documented operation over HTTP (no 404 or 405), with a status the operation documents', async () => {
    const seen: Observed[] = [];
    for (const { method, path } of operations()) await call(seen, method as Method, path, { token: '' });
    expect(seen).toHaveLength(operations().length);
    expect(
      seen
        .filter(({ status }) => status === 404 || status === 405)
        .map(({ method, template, status }) => `${method} ${template} → ${status}`),
    ).toEqual([]);
    const undocumented = seen.filter(
      ({ method, template, status }) => !operationOf(method, template)?.responses[String(status)],
    );
    expect(undocumented.map(({ method, template, status }) => `${method} ${template} → ${status}`)).toEqual([]);
    // The bodies of the error answers; the 2xx bodies have tests of their own.
    expect(contractProblems(seen.filter(({ status }) => status >= 400))).toEqual([]);
  });

  it('asks for the API key (the operator token on the operator routes), with 401 and 429 documented, on exactly the operations that refuse a request without one', async () => {
    expect(document.components.securitySchemes['apiKey']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.securitySchemes['operatorToken']).toMatchObject({ type: 'http', scheme: 'bearer' });
    const mismatches: string[] = [];
    for (const { method, path, operation } of operations()) {
      const response = await request(urlOf(path), { method: method.toUpperCase() });
      const refused = response.status === 401 && response.body?.error?.code === 'unauthorized';
      const where = `${method} ${path}`;
      const guarded = isKeyed(operation) || isOperator(path);
      if (refused !== guarded)
        mismatches.push(
          `${where}: security ${JSON.stringify(operation.security)}, but without a key it answers ${response.status}`,
        );
      if (refused) {
        const scheme = isOperator(path) ? 'operatorToken' : 'apiKey';
        if (JSON.stringify(operation.security) !== JSON.stringify([{ [scheme]: [] }]))
          mismatches.push(`${where}: security is ${JSON.stringify(operation.security)}, not [{${scheme}: []}]`);
        for (const status of ['401', '429'])
          if (!operation.responses[status]) mismatches.push(`${where}: no ${status} response`);
      } else if (JSON.stringify(operation.security) !== '[]') {
        mismatches.push(`${where}: takes no key but its security is ${JSON.stringify(operation.security)}`);
      }
    }
    expect(mismatches).toEqual([]);
    const keyed = operations()
      .filter(({ operation }) => isKeyed(operation))
      .map(({ method, path }) => `${method} ${path}`);
    expect(keyed).toEqual(expect.arrayContaining(SPEC_ROUTES.filter((route) => route !== 'get /v1/openapi.json')));
    expect(operationOf('get', '/v1/openapi.json')?.security).toEqual([]);
  });

  it('gives every operation a 2xx response, a 429, the X-RateLimit-* headers on every response, a unique operationId and its path parameters', () => {
    const problems: string[] = [];
    for (const { method, path, operation } of operations()) {
      const where = `${method} ${path}`;
      if (!Object.keys(operation.responses).some((status) => /^2\d\d$/.test(status)))
        problems.push(`${where}: no 2xx response`);
      if (!operation.responses['429']) problems.push(`${where}: no 429 response (every request is counted)`);
      for (const [status, response] of Object.entries(operation.responses)) {
        if (
          Object.keys(response.headers ?? {})
            .sort()
            .join() !== 'X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset'
        )
          problems.push(`${where} → ${status}: not the three X-RateLimit-* headers`);
      }
      if (typeof operation.operationId !== 'string' || operation.operationId === '')
        problems.push(`${where}: no operationId`);
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const declared = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path');
      for (const name of templated) {
        if (!declared.some((parameter) => parameter.name === name && parameter.required === true))
          problems.push(`${where}: path parameter ${name} is not declared as required`);
      }
      for (const parameter of declared)
        if (!templated.includes(parameter.name))
          problems.push(`${where}: declares path parameter ${parameter.name} that the path does not have`);
    }
    expect(problems).toEqual([]);
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('describes the real answers of a whole conversation: every 2xx body matches the schema documented for its path, method and status', async () => {
    const seen: Observed[] = [];
    const opened = await call(seen, 'post', '/v1/conversations', { body: { customer_ref: 'contract-customer' } });
    const id = opened.body.id as string;
    const idempotencyKey = { 'idempotency-key': `contract-${randomUUID()}` };
    const first = await call(seen, 'post', '/v1/conversations', {
      body: { customer_ref: 'contract-retry' },
      headers: idempotencyKey,
    });
    const replayed = await call(seen, 'post', '/v1/conversations', {
      body: { customer_ref: 'contract-retry' },
      headers: idempotencyKey,
    });
    const answered = await call(seen, 'post', '/v1/conversations/{id}/messages', {
      id,
      body: { text: 'How do I return an item?' },
    });
    const withId = await call(seen, 'post', '/v1/conversations/{id}/messages', {
      id,
      body: { text: 'Do you ship abroad?', message_id: 'contract-msg-1' },
    });
    await call(seen, 'get', '/v1/events', { query: '?limit=1000' });
    await call(seen, 'get', '/v1/me');
    await call(seen, 'get', '/v1/conversations/{id}/transcript', { id });
    const openExport = await call(seen, 'get', '/v1/conversations/{id}/export', { id });
    const closed = await call(seen, 'post', '/v1/conversations/{id}/close', { id, body: {} });
    await call(seen, 'get', '/v1/conversations/{id}/quality', { id });
    const closedExport = await call(seen, 'get', '/v1/conversations/{id}/export', { id, query: '?format=json' });

    const other = (await call(seen, 'post', '/v1/conversations', { body: { customer_ref: 'contract-human' } })).body
      .id as string;
    const handedOver = await call(seen, 'post', '/v1/conversations/{id}/handover', {
      id: other,
      body: { reason: 'The customer asked for a person.' },
    });
    await call(seen, 'post', '/v1/conversations/{id}/human-messages', {
      id: other,
      body: { text: 'Hello, Sam here. How can I help?', author_name: 'Sam' },
    });
    const handedBack = await call(seen, 'post', '/v1/conversations/{id}/handback', { id: other, body: {} });
    const voice = await call(seen, 'post', '/v1/conversations/{id}/voice-sessions', { id: other });
    await call(seen, 'post', '/v1/voice-sessions/connect', { token: '', body: { token: voice.body.token } });

    // The flow really happened as meant, so the schemas were checked against meaningful bodies.
    expect(seen.map(({ status }) => status)).toEqual([
      201, 201, 201, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201, 200, 200, 200, 201, 200,
    ]);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(first.body);
    expect(answered.body.events[0]).toMatchObject({ type: 'conversation.reply', conversation_id: id });
    expect(withId.body.message_id).toBe('contract-msg-1');
    expect(openExport.body.quality).toBeNull();
    expect(closed.body.conversation.state).toBe('closed');
    expect(closedExport.body.quality).toMatchObject({ conversation_id: id, score: expect.any(Number) });
    expect(handedOver.body.conversation.state).toBe('human');
    expect(handedBack.body.conversation.state).toBe('ai');

    expect(contractProblems(seen)).toEqual([]);

    // The check does catch a body the document does not allow.
    const tampered = [
      { ...seen[0]!, body: { ...opened.body, state: 'archived' } },
      { ...seen[0]!, body: { ...opened.body, extra: true } },
      { ...seen[13]!, body: { ...handedOver.body, conversation: { ...handedOver.body.conversation, state: 'gone' } } },
    ];
    expect(contractProblems(tampered)).toHaveLength(3);
  });

  it('describes the real error answers: the documented Error shape, with a status each operation documents', async () => {
    const seen: Observed[] = [];
    const { id } = (
      await request(`${engine.url}/v1/conversations`, {
        token: engine.apiKey,
        body: { customer_ref: 'contract-errors' },
      })
    ).body as { id: string };
    await call(seen, 'post', '/v1/conversations/{id}/messages', { body: { text: 'Anyone there?' } });
    await call(seen, 'get', '/v1/conversations/{id}/transcript');
    await call(seen, 'post', '/v1/conversations', { body: { customer_ref: 'a', admin: true } });
    await call(seen, 'post', '/v1/conversations', { body: {} });
    await call(seen, 'post', '/v1/conversations', { rawBody: '{"customer_ref":' });
    await call(seen, 'post', '/v1/conversations', { token: '', body: { customer_ref: 'a' } });
    await call(seen, 'get', '/v1/events', { query: '?limit=0' });
    await call(seen, 'get', '/v1/conversations/{id}/quality', { id });
    await call(seen, 'post', '/v1/conversations/{id}/handback', { id, body: {} });
    await call(seen, 'post', '/v1/conversations/{id}/action-results', {
      id,
      body: { action_request_id: `act_${'0'.repeat(24)}`, result: {} },
    });
    // startEngine gives the engine no session keys.
    await call(seen, 'post', '/v1/widget-sessions', { body: { customer_ref: 'contract-errors' } });
    await call(seen, 'post', '/v1/voice-sessions/connect', { token: '', body: { token: 'not-a-voice-token' } });
    const voice = await request(`${engine.url}/v1/conversations/${id}/voice-sessions`, {
      method: 'POST',
      token: engine.apiKey,
    });
    await request(`${engine.url}/v1/voice-sessions/connect`, { body: { token: voice.body.token } });
    await call(seen, 'post', '/v1/voice-sessions/connect', { token: '', body: { token: voice.body.token } });
    expect(seen.map(({ status }) => status)).toEqual([404, 404, 400, 400, 400, 401, 400, 409, 409, 404, 503, 401, 409]);

    // A key allowed one request a minute: of three quick requests at least one is refused with 429
    // (two of them fall in the same minute even if a minute ends between them).
    const limitedAccount = await createAccount(engine.sql, 'Limited shop');
    await setAccountRateLimit(engine.sql, limitedAccount, 'sandbox', 1);
    const { key } = await issueApiKey(engine.sql, limitedAccount, 'sandbox');
    const limited: Observed[] = [];
    for (let attempt = 0; attempt < 3; attempt++) await call(limited, 'get', '/v1/me', { token: key });
    expect(limited.map(({ status }) => status)).toContain(429);

    expect(contractProblems([...seen, ...limited])).toEqual([]);
  });

  it('documents the request body of POST /v1/conversations as strictly as the validation enforces it: customer_ref required, no other field', async () => {
    const ref = pointer('paths', '/v1/conversations', 'post', 'requestBody', 'content', 'application/json', 'schema');
    const schema = operationOf('post', '/v1/conversations')?.requestBody?.content?.['application/json']?.schema;
    expect(schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: expect.arrayContaining(['customer_ref']),
    });

    const post = (body: unknown) => request(`${engine.url}/v1/conversations`, { token: engine.apiKey, body });
    expect(schemaProblems(ref, { customer_ref: 'a' })).toEqual([]);
    expect((await post({ customer_ref: 'a' })).status).toBe(201);

    const unknownField = { customer_ref: 'a', admin: true };
    expect(schemaProblems(ref, unknownField)).not.toEqual([]);
    const refusedUnknown = await post(unknownField);
    expect(refusedUnknown.status).toBe(400);
    expect(refusedUnknown.body.error.code).toBe('invalid_request');
    expect(JSON.stringify(refusedUnknown.body.error)).toContain('admin');

    expect(schemaProblems(ref, {})).not.toEqual([]);
    const refusedMissing = await post({});
    expect(refusedMissing.status).toBe(400);
    expect(refusedMissing.body.error.code).toBe('invalid_request');
    expect(JSON.stringify(refusedMissing.body.error)).toContain('customer_ref');
  });

  it('documents every request body as refusing an unknown field, as the real validation does', async () => {
    const { id } = (
      await request(`${engine.url}/v1/conversations`, {
        token: engine.apiKey,
        body: { customer_ref: 'contract-bodies' },
      })
    ).body as { id: string };
    // A body each route takes; with one unknown field more, the route must refuse it.
    const valid: Record<string, Record<string, unknown>> = {
      'post /v1/conversations': { customer_ref: 'contract-bodies' },
      'post /v1/conversations/{id}/messages': { text: 'Hello' },
      'post /v1/conversations/{id}/action-results': { action_request_id: `act_${'0'.repeat(24)}`, result: {} },
      'post /v1/conversations/{id}/handover': {},
      'post /v1/conversations/{id}/handback': {},
      'post /v1/conversations/{id}/close': {},
      'post /v1/conversations/{id}/human-messages': { text: 'Hello', author_name: 'Sam' },
      'post /v1/widget-sessions': { customer_ref: 'contract-bodies' },
      'post /v1/voice-sessions/connect': { token: 'a-token' },
      'post /v1/webhook-endpoints': { url: 'https://example.com/hooks', event_types: ['conversation.reply'] },
      'post /v1/knowledge': { title: 'Contract', body: 'A body.' },
      'patch /v1/knowledge/{id}': { title: 'Contract' },
      'put /v1/actions/{name}': { description: 'A contract action' },
      'put /v1/sandbox/fixtures/{action}': { result: {} },
      'post /v1/conversations/{id}/survey': { rating: 5 },
      'post /v1/reports': { kind: 'csat', from: '2026-01-01', to: '2026-01-31' },
      'patch /v1/agent': { name: 'Contract' },
      'put /v1/agent/kill-switch': { enabled: false },
      'post /v1/customers/{customer_ref}/merge': { from: 'contract-from' },
      'post /operator/v1/accounts': { name: 'Contract shop' },
      'post /operator/v1/accounts/{id}/keys': { environment: 'sandbox' },
      'post /operator/v1/accounts/{id}/moves': { reference: 'contract-move', name: 'Contract', conversation_ids: [] },
      'patch /operator/v1/accounts/{id}/limits': { requests_per_minute: { live: 1000 } },
      'post /v1/conversations/{id}/assist': {},
      'post /v1/monitors': { name: 'Contract', criteria: { keywords: ['contract'] } },
      'patch /v1/monitors/{id}': { name: 'Contract' },
      'post /v1/interviews': {
        title: 'Contract',
        intro: 'Hello',
        questions: [{ id: 'q1', text: 'Why?' }],
        closing: 'Thanks',
      },
      'patch /v1/interviews/{id}': { title: 'Contract' },
      'post /v1/interviews/{id}/sessions': { customer_ref: 'contract-bodies' },
      'post /v1/calls/{id}/end': { ended_by: 'customer' },
    };
    // JSON bodies; a multipart upload's form (POST /v1/media) is checked in engine/media-routes.test.ts.
    const withBodies = operations().filter(({ operation }) => operation.requestBody?.content?.['application/json']);
    expect(withBodies.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(Object.keys(valid).sort());

    const problems: string[] = [];
    for (const { method, path, operation } of withBodies) {
      const where = `${method} ${path}`;
      const ref = pointer('paths', path, method, 'requestBody', 'content', 'application/json', 'schema');
      const body = valid[where]!;
      const documentedErrors = schemaProblems(ref, body);
      if (documentedErrors.length)
        problems.push(`${where}: the document refuses a body the route takes: ${documentedErrors.join('; ')}`);
      const withUnknown = { ...body, unexpected_field: true };
      if (schemaProblems(ref, withUnknown).length === 0)
        problems.push(`${where}: the document allows an unknown field`);
      // Well-formed path parameters (a knowledge document's id, an action's name), so that the body is what is refused.
      const url = urlOf(
        path,
        path.startsWith('/v1/knowledge/')
          ? `doc_${'0'.repeat(22)}`
          : path.startsWith('/v1/monitors/')
            ? `mon_${'0'.repeat(22)}`
            : path.startsWith('/v1/interviews/')
              ? `ivw_${'0'.repeat(22)}`
              : isOperator(path)
                ? engine.accountId
                : id,
      ).replace(/\{(name|action)\}/, 'contract_action');
      const token = isOperator(path) ? engine.operatorToken : isKeyed(operation) ? engine.apiKey : '';
      const response = await request(url, { method: method.toUpperCase(), token, body: withUnknown });
      if (
        response.status !== 400 ||
        response.body?.error?.code !== 'invalid_request' ||
        !JSON.stringify(response.body).includes('unexpected_field')
      ) {
        problems.push(
          `${where}: the route does not refuse the unknown field: ${response.status} ${JSON.stringify(response.body)}`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it('documents that GET /v1/openapi.json answers with a JSON body', async () => {
    const seen: Observed[] = [];
    const response = await call(seen, 'get', '/v1/openapi.json', { token: '' });
    expect(response.status).toBe(200);
    expect(contractProblems(seen)).toEqual([]);
  });

  it('documents the text/plain answer of GET /v1/conversations/{id}/export?format=text', async () => {
    const { id } = (
      await request(`${engine.url}/v1/conversations`, { token: engine.apiKey, body: { customer_ref: 'contract-text' } })
    ).body as { id: string };
    const seen: Observed[] = [];
    const response = await call(seen, 'get', '/v1/conversations/{id}/export', { id, query: '?format=text' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain\b/);
    expect(contractProblems(seen)).toEqual([]);
  });
});
