import { createHmac, randomInt } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startStack, type Driver, type TestStack, engineConversationOf, engineMove } from './stack.ts';
import { until } from './until.ts';
import { createInbox, enableClientApi } from '../bff/index.ts';

/**
 * What the helpdesk Client API tests share (bff/client-api-*.test.ts): Chatwoot's field lists and
 * checks, and a stack (BFF and engine) per driver with helpers that call the routes.
 */

export const DAY_MS = 24 * 3600_000;

export type Kind = 'null' | 'integer' | 'number' | 'string' | 'boolean' | 'array' | 'object' | 'undefined';
export const kindOf = (value: unknown): Kind =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : Number.isInteger(value)
        ? 'integer'
        : (typeof value as Kind);

/** Asserts each field is present and of one of the given kinds (`'string|null'`). */
export function expectFields(value: unknown, fields: Record<string, string>, what: string): void {
  expect(kindOf(value), what).toBe('object');
  const record = value as Record<string, unknown>;
  for (const [name, kinds] of Object.entries(fields)) {
    expect(Object.keys(record), `${what} has ${name}`).toContain(name);
    expect(kinds.split('|'), `${what}.${name} is ${kinds}, got ${JSON.stringify(record[name])}`).toContain(
      kindOf(record[name]),
    );
  }
}

export const INBOX_FIELDS = {
  identifier: 'string',
  name: 'string',
  timezone: 'string',
  working_hours: 'array',
  working_hours_enabled: 'boolean',
  csat_survey_enabled: 'boolean',
  greeting_enabled: 'boolean',
  identity_validation_enabled: 'boolean',
};
export const WORKING_HOURS_FIELDS = {
  day_of_week: 'integer',
  closed_all_day: 'boolean',
  open_hour: 'integer|null',
  open_minutes: 'integer|null',
  close_hour: 'integer|null',
  close_minutes: 'integer|null',
  open_all_day: 'boolean',
};
export const CONTACT_FIELDS = {
  id: 'integer',
  source_id: 'string',
  pubsub_token: 'string',
  name: 'string',
  email: 'string|null',
  phone_number: 'string|null',
};
export const CONTACT_RECORD_FIELDS = {
  id: 'integer',
  name: 'string',
  email: 'string|null',
  phone_number: 'string|null',
  identifier: 'string|null',
  custom_attributes: 'object',
};
export const CONVERSATION_FIELDS = {
  id: 'integer',
  uuid: 'string',
  inbox_id: 'integer',
  contact_last_seen_at: 'integer',
  status: 'string',
  agent_last_seen_at: 'integer',
  messages: 'array',
  contact: 'object',
};
export const MESSAGE_FIELDS = {
  id: 'integer',
  content: 'string|null',
  message_type: 'integer',
  content_type: 'string',
  content_attributes: 'object',
  created_at: 'integer',
  conversation_id: 'integer',
};
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** At least 128 random bits: 22 or more characters of a 62- or 64-letter alphabet (log2(62) × 22 ≈ 131). */
export const CAPABILITY = /^[A-Za-z0-9_-]{22,}$/;

export function expectMessage(value: unknown, what = 'message'): void {
  expectFields(value, MESSAGE_FIELDS, what);
  const message = value as Record<string, unknown>;
  expect([0, 1, 2, 3], `${what}.message_type`).toContain(message['message_type']);
  if ('attachments' in message) expect(kindOf(message['attachments']), `${what}.attachments`).toBe('array');
  if ('sender' in message)
    expectFields(message['sender'], { id: 'integer', name: 'string', type: 'string' }, `${what}.sender`);
}

export function expectConversation(value: unknown, what = 'conversation'): void {
  expectFields(value, CONVERSATION_FIELDS, what);
  const conversation = value as { uuid: string; status: string; messages: unknown[]; contact: unknown };
  expect(conversation.uuid).toMatch(UUID);
  expect(['open', 'resolved', 'pending', 'snoozed']).toContain(conversation.status);
  conversation.messages.forEach((message, index) => expectMessage(message, `${what}.messages[${index}]`));
  expectFields(conversation.contact, CONTACT_RECORD_FIELDS, `${what}.contact`);
}

/** A refusal in the helpdesk's `bad_request_error` shape: {description, errors: [{field, message, code}]}. */
export function expectDeskError(response: { status: number; body: any }, status: number, code: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(kindOf(response.body.description)).toBe('string');
  expect(kindOf(response.body.errors)).toBe('array');
  expect(response.body.errors.length).toBeGreaterThan(0);
  for (const entry of response.body.errors)
    expectFields(entry, { field: 'string', message: 'string', code: 'string' }, 'errors[]');
  expect(response.body.errors[0].code).toBe(code);
}

type Response = { status: number; headers: Headers; body: any };
type RequestOptions = { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> };

/**
 * A loopback address of its own (all of 127.0.0.0/8 reaches this machine), for a client the
 * Client API's per-address limits must tell apart from the others.
 */
export const newClientAddress = (): string => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** The test client of test/stack.ts's `request`, sending from `address` (the peer the BFF sees). */
export function requestFrom(address: string, url: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      url,
      { method: options.method ?? (payload === undefined ? 'GET' : 'POST'), headers, localAddress: address },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', reject);
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // Not JSON: keep the text.
          }
          const received = new Headers();
          for (const [name, value] of Object.entries(answer.headers))
            if (value !== undefined) received.set(name, Array.isArray(value) ? value.join(', ') : value);
          resolve({ status: answer.statusCode!, headers: received, body });
        });
      },
    );
    sent.on('error', reject);
    sent.end(payload);
  });
}

let testAddress = newClientAddress();
/**
 * The Client API tests' `request`: each test calls from an address of its own, so that the
 * per-address limits (tested in client-api-limits.test.ts) count one test's requests, as they
 * would count one visitor's, and not the whole file's.
 */
export const request = (url: string, options: RequestOptions = {}): Promise<Response> =>
  requestFrom(testAddress, url, options);

export interface Contact {
  id: number;
  source_id: string;
  pubsub_token: string;
  name: string;
  email: string | null;
  phone_number: string | null;
}
export interface Conversation {
  id: number;
  uuid: string;
  status: string;
  contact_last_seen_at: number;
  messages: Message[];
  contact: Record<string, unknown>;
}
export interface Message {
  id: number;
  content: string | null;
  message_type: number;
  content_type: string;
  content_attributes: Record<string, unknown>;
  created_at: number;
  conversation_id: number;
  sender?: { id: number; name: string; type: string };
}

/** Starts a stack for the file's tests (the engine's feed read by hand) and gives the helpers that call it. */
export function useClientApi(driver: Driver) {
  let stack: TestStack;
  let demoInboxId: string;
  // The BFF's clock: real time unless a test freezes it or moves it on.
  const clock: { frozenAt: number | undefined } = { frozenAt: undefined };
  const now = () => new Date(clock.frozenAt ?? Date.now());

  beforeEach(() => {
    testAddress = newClientAddress();
  });
  beforeAll(async () => {
    // The feed is read by hand (stack.bff.feed.catchUp()), so engine-side moves arrive when a test says.
    stack = await startStack(driver, {}, { feedPollMs: 0, now });
    demoInboxId = stack.inboxId;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const base = (inbox = stack.inboxIdentifier) => `${stack.url}/public/api/v1/inboxes/${inbox}`;
  const contactUrl = (inbox: string, source: string) => `${base(inbox)}/contacts/${encodeURIComponent(source)}`;
  const conversationUrl = (inbox: string, source: string, id: number | string) =>
    `${contactUrl(inbox, source)}/conversations/${id}`;
  const hash = (token: string, identifier: string) => createHmac('sha256', token).update(identifier).digest('hex');

  /** Another inbox, opened to the Client API with the given settings. */
  async function newInbox(
    settings: Parameters<typeof createInbox>[1],
    clientApi: Parameters<typeof enableClientApi>[2] = {},
  ) {
    const inbox = await createInbox(stack.bffSql, settings);
    const { identifier, hmacToken } = await enableClientApi(stack.bffSql, inbox.id, clientApi);
    return { id: inbox.id, identifier, hmacToken };
  }
  async function createContact(body: object = {}, inbox = stack.inboxIdentifier): Promise<Contact> {
    const response = await request(`${base(inbox)}/contacts`, { body });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as Contact;
  }
  async function openConversation(
    source: string,
    inbox = stack.inboxIdentifier,
    body: object = {},
  ): Promise<Conversation> {
    const response = await request(`${contactUrl(inbox, source)}/conversations`, { body });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as Conversation;
  }
  const send = (inbox: string, source: string, id: number, content: string, echo_id?: string) =>
    request(`${conversationUrl(inbox, source, id)}/messages`, {
      body: echo_id === undefined ? { content } : { content, echo_id },
    });
  async function listMessages(inbox: string, source: string, id: number, before?: number): Promise<Message[]> {
    const response = await request(
      `${conversationUrl(inbox, source, id)}/messages${before === undefined ? '' : `?before=${before}`}`,
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as Message[];
  }
  async function getConversation(inbox: string, source: string, id: number): Promise<Conversation> {
    const response = await request(conversationUrl(inbox, source, id));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as Conversation;
  }
  const resolve = (inbox: string, source: string, id: number) =>
    request(`${conversationUrl(inbox, source, id)}/toggle_status`, { method: 'POST' });
  const patchMessage = (inbox: string, source: string, id: number, messageId: number, submitted_values: unknown) =>
    request(`${conversationUrl(inbox, source, id)}/messages/${messageId}`, {
      method: 'PATCH',
      body: { submitted_values },
    });

  /** Sends the contact's message and waits until the AI's answer to it is stored. */
  async function ask(inbox: string, source: string, id: number, content: string): Promise<Message[]> {
    const sent = await send(inbox, source, id, content);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await stack.bff.relay.settled();
    return until(
      () => listMessages(inbox, source, id),
      (list) => list.some((message) => message.id > sent.body.id && message.message_type === 1),
      `an answer to "${content}"`,
    );
  }
  const engineId = (uuid: string) => engineConversationOf(stack, uuid);
  // The Client API's contacts are live customers: their conversations are the live key's.
  const engine = (engineConversationId: string, move: string, body: object = {}) =>
    engineMove({ engineUrl: stack.engineUrl, apiKey: stack.liveApiKey! }, engineConversationId, move, body);
  // People, not contact rows: a match gives a new contact (new source_id and pubsub_token, as Chatwoot's new contact-inbox) of the same person.
  const contactCount = async (inboxId: string) =>
    (
      await stack.bffSql.query<{ n: number }>(
        'SELECT count(DISTINCT COALESCE(person_id, id))::int AS n FROM contacts WHERE inbox_id = $1',
        [inboxId],
      )
    )[0]!.n;
  const storedMessages = (conversationId: number) =>
    stack.bffSql.query<{ id: number; author: string; content_type: string; text: string }>(
      'SELECT id::int AS id, author, content_type, text FROM messages WHERE conversation_id = $1 ORDER BY id',
      [conversationId],
    );
  const conversationRow = async (conversationId: number) =>
    (
      await stack.bffSql.query<{
        status: string;
        contact_last_seen_at: Date | null;
        customer_last_read_id: number;
        custom_attributes: Record<string, unknown>;
      }>(
        'SELECT status, contact_last_seen_at, customer_last_read_id::int AS customer_last_read_id, custom_attributes FROM conversations WHERE id = $1',
        [conversationId],
      )
    )[0]!;
  const surveyOf = async (uuid: string) => request(`${stack.url}/public/api/v1/csat_survey/${uuid}`);
  return {
    get stack() {
      return stack;
    },
    get demoInboxId() {
      return demoInboxId;
    },
    clock,
    base,
    contactUrl,
    conversationUrl,
    hash,
    newInbox,
    createContact,
    openConversation,
    send,
    listMessages,
    getConversation,
    resolve,
    patchMessage,
    ask,
    engineId,
    engine,
    contactCount,
    storedMessages,
    conversationRow,
    surveyOf,
  };
}
