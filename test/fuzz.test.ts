import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimiter } from '../shared/server/index.ts';
import { request, startStack, type TestStack } from './stack.ts';
import { newVisitor, openWidgetConversation } from './widget-client.ts';

/**
 * Random bad input against every operation of both OpenAPI documents (the engine's and the
 * BFF's): wrong types, huge and strange strings, unknown and missing fields, broken JSON, odd ids
 * and queries, with and without credentials. Whatever comes in, the answer is a 4xx (or a 2xx when
 * the input happened to be fine) with an error body — never a 500. The generator is seeded
 * (FUZZ_SEED, default below), so a failure can be replayed exactly.
 */
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261122);
const CASES_PER_OPERATION = Number(process.env['FUZZ_CASES'] ?? 12);

/** mulberry32: a small seeded generator, enough to spread the cases. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, pick, chance: (p: number) => next() < p };
}
type Random = ReturnType<typeof seeded>;

const STRANGE_STRINGS = [
  '',
  ' ',
  'a'.repeat(10_001),
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  '😀'.repeat(50),
  'null',
  '1e309',
  'cnv_',
  'evt_0000000000000000',
  '00000000-0000-0000-0000-000000000000',
  "'; DROP TABLE messages; --",
  'http://169.254.169.254/latest/meta-data',
  'service_test_' + 'x'.repeat(30),
];

function randomValue(random: Random, depth = 0): unknown {
  const kind = random.pick(
    depth > 2
      ? ['null', 'bool', 'number', 'string']
      : ['null', 'bool', 'number', 'string', 'string', 'array', 'object'],
  );
  switch (kind) {
    case 'null':
      return null;
    case 'bool':
      return random.chance(0.5);
    case 'number':
      return random.pick([0, -1, 1, 1.5, 2 ** 53, -(2 ** 63), 1e308, 6, 1000, 1001]);
    case 'string':
      return random.pick(STRANGE_STRINGS);
    case 'array':
      return Array.from({ length: random.pick([0, 1, 3, 60]) }, () => randomValue(random, depth + 1));
    default:
      return randomObject(random, [], depth + 1);
  }
}

/** An object with some of the documented field names (so validation gets past the first field) and some unknown ones. */
function randomObject(random: Random, names: readonly string[], depth = 0): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const name of names) if (random.chance(0.6)) object[name] = randomValue(random, depth + 1);
  if (random.chance(0.3))
    object[random.pick(['__proto__', 'constructor', 'extra', 'x'.repeat(300)])] = randomValue(random, depth + 1);
  return object;
}

interface Operation {
  requestBody?: { content?: Record<string, { schema?: { $ref?: string; properties?: Record<string, unknown> } }> };
  parameters?: { name: string; in: string }[];
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> };
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

function bodyNames(document: Document, operation: Operation): string[] {
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  const resolved = schema?.$ref ? document.components?.schemas?.[schema.$ref.split('/').at(-1)!] : schema;
  return Object.keys(resolved?.properties ?? {});
}

describe('random bad input on every documented operation', () => {
  let stack: TestStack;
  /** Real ids, so that some cases reach deep into the handlers rather than stopping at "not found". */
  const real: Record<string, string> = {};
  const credentials: { engine: string; visitor: string } = { engine: '', visitor: '' };
  const allow: RateLimiter = {
    consume: async (_key, limit) => ({ allowed: true, limit, remaining: limit, resetS: 0 }),
    refund: async () => undefined,
  };

  beforeAll(async () => {
    // The widget limit is lifted here (it has tests of its own), so the cases test the handlers.
    // Every request comes from 127.0.0.1: the Client API's per-address limit would hide its routes.
    stack = await startStack(
      undefined,
      {},
      {
        widgetLimiter: allow,
        clientApiLimits: {
          requestsPerAddress: 1_000_000,
          requestsPerInbox: 1_000_000,
          contactsPerAddress: 1_000_000,
          messagesPerContact: 1_000_000,
        },
        messageLimits: {
          perCustomerPerMinute: 1_000_000,
          perAddressPerMinute: 1_000_000,
          perInboxPerMinute: 1_000_000,
        },
      },
    );
    credentials.engine = stack.apiKey;
    const visitor = await newVisitor(stack.url);
    credentials.visitor = visitor.token;
    real['widget-conversation'] = (await openWidgetConversation(stack.url, visitor.token)).id;
    const engineConversation = await request(`${stack.engineUrl}/v1/conversations`, {
      token: stack.apiKey,
      body: { customer_ref: 'fuzz' },
    });
    real['engine-conversation'] = engineConversation.body.id;
    const contact = await request(`${stack.url}/public/api/v1/inboxes/${stack.inboxIdentifier}/contacts`, {
      body: { name: 'Fuzz' },
    });
    real['source-id'] = contact.body.source_id;
    const conversation = await request(
      `${stack.url}/public/api/v1/inboxes/${stack.inboxIdentifier}/contacts/${contact.body.source_id}/conversations`,
      { body: {} },
    );
    real['desk-conversation'] = String(conversation.body.id);
    real['desk-uuid'] = conversation.body.uuid;
  });
  afterAll(() => stack?.stop());

  /** A value for a path parameter: usually a real id of the right kind, sometimes junk. */
  function pathValue(random: Random, template: string, name: string, engine: boolean): string {
    if (random.chance(0.35)) return encodeURIComponent(String(random.pick(STRANGE_STRINGS)).slice(0, 200)) || 'x';
    if (name === 'inbox_identifier') return stack.inboxIdentifier;
    if (name === 'contact_identifier') return real['source-id']!;
    if (name === 'conversation_uuid' || name === 'uuid') return real['desk-uuid']!;
    if (template.startsWith('/public/'))
      return name === 'message_id' ? String(random.pick([1, 2, 999999])) : real['desk-conversation']!;
    if (engine) return real['engine-conversation']!;
    return real['widget-conversation']!;
  }

  async function fuzz(label: string, base: string, documentPath: string, engine: boolean): Promise<string[]> {
    const document = (await request(base + documentPath)).body as Document;
    const problems: string[] = [];
    let index = 0;
    for (const [template, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!METHODS.has(method)) continue;
        const random = seeded(SEED + index++);
        for (let attempt = 0; attempt < CASES_PER_OPERATION; attempt++) {
          const path = template.replace(/\{(\w+)\}/g, (_match, name: string) =>
            pathValue(random, template, name, engine),
          );
          const query = random.chance(0.4)
            ? `?${(operation.parameters ?? [])
                .filter((parameter) => parameter.in === 'query')
                .map(
                  (parameter) => `${parameter.name}=${encodeURIComponent(JSON.stringify(randomValue(random)) ?? '')}`,
                )
                .join('&')}&${random.pick(['x=1', 'limit=-5', 'after=%00', 'types=,,,'])}`
            : '';
          // The engine's operator routes take the installation's operator token (the stack's own engine has one).
          const good = engine
            ? template.startsWith('/operator/')
              ? stack.operatorToken!
              : credentials.engine
            : template.startsWith('/v1/widget-sessions')
              ? stack.siteKey
              : credentials.visitor;
          const token = random.chance(0.85)
            ? good
            : random.pick(['', 'wst_forged', 'service_test_forged', 'pk_test_forged']);
          const sendsBody = method !== 'get' && method !== 'delete';
          const raw =
            sendsBody && random.chance(0.15)
              ? random.pick(['{', '[1,', '{"a":}', 'null', '"text"', '{"a":1}'.repeat(3)])
              : undefined;
          const body =
            sendsBody && raw === undefined
              ? random.chance(0.8)
                ? randomObject(random, bodyNames(document, operation))
                : randomValue(random)
              : undefined;
          const response = await request(`${base}${path}${query}`, {
            method: method.toUpperCase(),
            ...(token ? { token } : {}),
            ...(raw !== undefined ? { rawBody: raw } : body !== undefined ? { body } : {}),
          });
          const where = `${label} ${method.toUpperCase()} ${template} as ${path.slice(0, 160)}${query.slice(0, 80)} (seed ${SEED}, case ${attempt}): ${response.status}`;
          if (response.status >= 500) problems.push(`${where} ${JSON.stringify(response.body).slice(0, 300)}`);
          // 431 is Node's own answer to a request line or headers over its limit, before any route runs.
          else if (response.status >= 400 && response.status !== 431) {
            const html = (response.headers.get('content-type') ?? '').startsWith('text/html');
            const shaped =
              html ||
              typeof response.body?.error?.code === 'string' ||
              typeof response.body?.description === 'string' ||
              typeof response.body?.message === 'string';
            if (!shaped)
              problems.push(`${where} without an error body: ${JSON.stringify(response.body).slice(0, 200)}`);
          }
        }
      }
    }
    return problems;
  }

  it("never answers the engine's operations with a 5xx, and every refusal has an error body", async () => {
    expect(await fuzz('engine', stack.engineUrl, '/v1/openapi.json', true)).toEqual([]);
  });

  it("never answers the BFF's operations (widget, sessions, Client API, survey, files) with a 5xx, and every refusal has an error body", async () => {
    expect(await fuzz('BFF', stack.url, '/openapi.json', false)).toEqual([]);
  });
});
