import { createHmac } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS, request, startStack, type TestStack, engineConversationOf, engineMove } from '../test/stack.ts';
import { until } from '../test/until.ts';
import { NOTICES } from './engine-events.ts';
import { createInbox, enableClientApi } from './index.ts';

/**
 * The helpdesk Client API (`/public/api/v1/inboxes/{inbox_identifier}/…`, SPEC "Helpdesk Client
 * API", shared/reference/chatwoot-client-api.md §1) over real HTTP, on the whole demo stack: one
 * contract test per route (every field present, with Chatwoot's type), the behaviours of each
 * route, identity validation, scoping, limits, CORS and the OpenAPI document.
 */

const DAY_MS = 24 * 3600_000;

type Kind = 'null' | 'integer' | 'number' | 'string' | 'boolean' | 'array' | 'object' | 'undefined';
const kindOf = (value: unknown): Kind =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : (typeof value as Kind);

/** Asserts each field is present and of one of the given kinds (`'string|null'`). */
function expectFields(value: unknown, fields: Record<string, string>, what: string): void {
  expect(kindOf(value), what).toBe('object');
  const record = value as Record<string, unknown>;
  for (const [name, kinds] of Object.entries(fields)) {
    expect(Object.keys(record), `${what} has ${name}`).toContain(name);
    expect(kinds.split('|'), `${what}.${name} is ${kinds}, got ${JSON.stringify(record[name])}`).toContain(kindOf(record[name]));
  }
}

const INBOX_FIELDS = {
  identifier: 'string',
  name: 'string',
  timezone: 'string',
  working_hours: 'array',
  working_hours_enabled: 'boolean',
  csat_survey_enabled: 'boolean',
  greeting_enabled: 'boolean',
  identity_validation_enabled: 'boolean',
};
const WORKING_HOURS_FIELDS = {
  day_of_week: 'integer',
  closed_all_day: 'boolean',
  open_hour: 'integer|null',
  open_minutes: 'integer|null',
  close_hour: 'integer|null',
  close_minutes: 'integer|null',
  open_all_day: 'boolean',
};
const CONTACT_FIELDS = { id: 'integer', source_id: 'string', pubsub_token: 'string', name: 'string', email: 'string|null', phone_number: 'string|null' };
const CONTACT_RECORD_FIELDS = { id: 'integer', name: 'string', email: 'string|null', phone_number: 'string|null', identifier: 'string|null', custom_attributes: 'object' };
const CONVERSATION_FIELDS = {
  id: 'integer',
  uuid: 'string',
  inbox_id: 'integer',
  contact_last_seen_at: 'integer',
  status: 'string',
  agent_last_seen_at: 'integer',
  messages: 'array',
  contact: 'object',
};
const MESSAGE_FIELDS = {
  id: 'integer',
  content: 'string|null',
  message_type: 'integer',
  content_type: 'string',
  content_attributes: 'object',
  created_at: 'integer',
  conversation_id: 'integer',
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** At least 128 random bits: 22 or more characters of a 62- or 64-letter alphabet (log2(62) × 22 ≈ 131). */
const CAPABILITY = /^[A-Za-z0-9_-]{22,}$/;

function expectMessage(value: unknown, what = 'message'): void {
  expectFields(value, MESSAGE_FIELDS, what);
  const message = value as Record<string, unknown>;
  expect([0, 1, 2, 3], `${what}.message_type`).toContain(message['message_type']);
  if ('attachments' in message) expect(kindOf(message['attachments']), `${what}.attachments`).toBe('array');
  if ('sender' in message) expectFields(message['sender'], { id: 'integer', name: 'string', type: 'string' }, `${what}.sender`);
}

function expectConversation(value: unknown, what = 'conversation'): void {
  expectFields(value, CONVERSATION_FIELDS, what);
  const conversation = value as { uuid: string; status: string; messages: unknown[]; contact: unknown };
  expect(conversation.uuid).toMatch(UUID);
  expect(['open', 'resolved', 'pending', 'snoozed']).toContain(conversation.status);
  conversation.messages.forEach((message, index) => expectMessage(message, `${what}.messages[${index}]`));
  expectFields(conversation.contact, CONTACT_RECORD_FIELDS, `${what}.contact`);
}

/** A refusal in the helpdesk's `bad_request_error` shape: {description, errors: [{field, message, code}]}. */
function expectDeskError(response: { status: number; body: any }, status: number, code: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(kindOf(response.body.description)).toBe('string');
  expect(kindOf(response.body.errors)).toBe('array');
  expect(response.body.errors.length).toBeGreaterThan(0);
  for (const entry of response.body.errors) expectFields(entry, { field: 'string', message: 'string', code: 'string' }, 'errors[]');
  expect(response.body.errors[0].code).toBe(code);
}

describe.each(DRIVERS)('helpdesk Client API over HTTP on $name', (driver) => {
  let stack: TestStack;
  let demoInboxId: string;
  // The BFF's clock: real time unless a test freezes it or moves it on.
  const clock: { frozenAt: number | undefined } = { frozenAt: undefined };
  const now = () => new Date(clock.frozenAt ?? Date.now());

  beforeAll(async () => {
    // The feed is read by hand (stack.bff.feed.catchUp()), so engine-side moves arrive when a test says.
    stack = await startStack(driver, {}, { feedPollMs: 0, now });
    const [row] = await stack.bffSql.query<{ id: string }>('SELECT id FROM inboxes WHERE identifier = $1', [stack.inboxIdentifier]);
    demoInboxId = row!.id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const base = (inbox = stack.inboxIdentifier) => `${stack.url}/public/api/v1/inboxes/${inbox}`;
  const contactUrl = (inbox: string, source: string) => `${base(inbox)}/contacts/${encodeURIComponent(source)}`;
  const conversationUrl = (inbox: string, source: string, id: number | string) => `${contactUrl(inbox, source)}/conversations/${id}`;
  const hash = (token: string, identifier: string) => createHmac('sha256', token).update(identifier).digest('hex');

  interface Contact {
    id: number;
    source_id: string;
    pubsub_token: string;
    name: string;
    email: string | null;
    phone_number: string | null;
  }
  interface Conversation {
    id: number;
    uuid: string;
    status: string;
    contact_last_seen_at: number;
    messages: Message[];
    contact: Record<string, unknown>;
  }
  interface Message {
    id: number;
    content: string | null;
    message_type: number;
    content_type: string;
    content_attributes: Record<string, unknown>;
    created_at: number;
    conversation_id: number;
    sender?: { id: number; name: string; type: string };
  }

  /** Another inbox, opened to the Client API with the given settings. */
  async function newInbox(settings: Parameters<typeof createInbox>[1], clientApi: Parameters<typeof enableClientApi>[2] = {}) {
    const inbox = await createInbox(stack.bffSql, settings);
    const { identifier, hmacToken } = await enableClientApi(stack.bffSql, inbox.id, clientApi);
    return { id: inbox.id, identifier, hmacToken };
  }
  async function createContact(body: object = {}, inbox = stack.inboxIdentifier): Promise<Contact> {
    const response = await request(`${base(inbox)}/contacts`, { body });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as Contact;
  }
  async function openConversation(source: string, inbox = stack.inboxIdentifier, body: object = {}): Promise<Conversation> {
    const response = await request(`${contactUrl(inbox, source)}/conversations`, { body });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as Conversation;
  }
  const send = (inbox: string, source: string, id: number, content: string, echo_id?: string) =>
    request(`${conversationUrl(inbox, source, id)}/messages`, { body: echo_id === undefined ? { content } : { content, echo_id } });
  async function listMessages(inbox: string, source: string, id: number, before?: number): Promise<Message[]> {
    const response = await request(`${conversationUrl(inbox, source, id)}/messages${before === undefined ? '' : `?before=${before}`}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as Message[];
  }
  async function getConversation(inbox: string, source: string, id: number): Promise<Conversation> {
    const response = await request(conversationUrl(inbox, source, id));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as Conversation;
  }
  const resolve = (inbox: string, source: string, id: number) => request(`${conversationUrl(inbox, source, id)}/toggle_status`, { method: 'POST' });
  const patchMessage = (inbox: string, source: string, id: number, messageId: number, submitted_values: unknown) =>
    request(`${conversationUrl(inbox, source, id)}/messages/${messageId}`, { method: 'PATCH', body: { submitted_values } });

  /** Sends the contact's message and waits until the AI's answer to it is stored. */
  async function ask(inbox: string, source: string, id: number, content: string): Promise<Message[]> {
    const sent = await send(inbox, source, id, content);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await stack.bff.relay.settled();
    return until(() => listMessages(inbox, source, id), (list) => list.some((message) => message.id > sent.body.id && message.message_type === 1), `an answer to "${content}"`);
  }
  const engineId = (uuid: string) => engineConversationOf(stack, uuid);
  const engine = (engineConversationId: string, move: string, body: object = {}) => engineMove(stack, engineConversationId, move, body);
  // People, not contact rows: a match gives a new contact (new source_id and pubsub_token, as Chatwoot's new contact-inbox) of the same person.
  const contactCount = async (inboxId: string) =>
    (await stack.bffSql.query<{ n: number }>('SELECT count(DISTINCT COALESCE(person_id, id))::int AS n FROM contacts WHERE inbox_id = $1', [inboxId]))[0]!.n;
  const storedMessages = (conversationId: number) =>
    stack.bffSql.query<{ id: number; author: string; content_type: string; text: string }>('SELECT id::int AS id, author, content_type, text FROM messages WHERE conversation_id = $1 ORDER BY id', [conversationId]);
  const conversationRow = async (conversationId: number) =>
    (await stack.bffSql.query<{ status: string; contact_last_seen_at: Date | null; customer_last_read_id: number; custom_attributes: Record<string, unknown> }>(
      'SELECT status, contact_last_seen_at, customer_last_read_id::int AS customer_last_read_id, custom_attributes FROM conversations WHERE id = $1',
      [conversationId],
    ))[0]!;
  const surveyOf = async (uuid: string) => request(`${stack.url}/public/api/v1/csat_survey/${uuid}`);

  describe('GET /public/api/v1/inboxes/{inbox_identifier}', () => {
    it("gives the public inbox with every field Chatwoot's view renders, each of Chatwoot's type", async () => {
      const response = await request(base());
      expect(response.status).toBe(200);
      expectFields(response.body, INBOX_FIELDS, 'inbox');
      expect(response.body).toMatchObject({ identifier: stack.inboxIdentifier, name: 'Demo store', csat_survey_enabled: true, identity_validation_enabled: false });
      const week = response.body.working_hours as unknown[];
      expect(week).toHaveLength(7);
      week.forEach((day, index) => expectFields(day, WORKING_HOURS_FIELDS, `working_hours[${index}]`));
      expect(week.map((day) => (day as { day_of_week: number }).day_of_week)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    });

    it("shows another inbox's own settings: its name, survey and identity validation", async () => {
      const inbox = await newInbox({ name: 'Members area', surveyEnabled: false }, { hmacMandatory: true });
      const response = await request(base(inbox.identifier));
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ identifier: inbox.identifier, name: 'Members area', csat_survey_enabled: false, identity_validation_enabled: true });
    });

    it('answers an unknown or malformed inbox identifier with 404 not_found in the bad_request_error shape', async () => {
      expectDeskError(await request(base('NoSuchInboxIdentifier0000000')), 404, 'not_found');
      expectDeskError(await request(base('not%20an%20identifier')), 404, 'not_found');
    });

    it('gives inboxes identifiers of at least 128 random bits, different for every inbox', async () => {
      expect(stack.inboxIdentifier).toMatch(CAPABILITY);
      const first = await newInbox({ name: 'One' });
      const second = await newInbox({ name: 'Two' });
      expect(first.identifier).toMatch(CAPABILITY);
      expect(second.identifier).toMatch(CAPABILITY);
      expect(new Set([stack.inboxIdentifier, first.identifier, second.identifier]).size).toBe(3);
    });
  });

  describe('POST /contacts', () => {
    it('creates a contact and answers with the public contact: id, source_id, pubsub_token, name, email, phone_number', async () => {
      const before = await contactCount(demoInboxId);
      const response = await request(`${base()}/contacts`, { body: { name: 'Ada Lovelace', email: 'ada.create@example.com', phone_number: '+44 20 7946 0000' } });
      expect(response.status).toBe(200);
      expectFields(response.body, CONTACT_FIELDS, 'contact');
      expect(response.body).toMatchObject({ name: 'Ada Lovelace', email: 'ada.create@example.com', phone_number: '+44 20 7946 0000' });
      expect(await contactCount(demoInboxId)).toBe(before + 1);

      const shown = await request(contactUrl(stack.inboxIdentifier, response.body.source_id));
      expect(shown.status).toBe(200);
      expectFields(shown.body, CONTACT_FIELDS, 'contact (GET)');
      expect(shown.body).toEqual(response.body);
    });

    it('gives every new contact a source_id and a pubsub_token of at least 128 random bits, and a name when none is sent', async () => {
      const first = await createContact();
      const second = await createContact();
      for (const contact of [first, second]) {
        expect(contact.source_id).toMatch(CAPABILITY);
        expect(contact.pubsub_token).toMatch(CAPABILITY);
        expect(contact.name.length).toBeGreaterThan(0);
        expect(contact.email).toBeNull();
        expect(contact.phone_number).toBeNull();
      }
      expect(new Set([first.source_id, second.source_id, first.pubsub_token, second.pubsub_token]).size).toBe(4);
      expect(first.id).not.toBe(second.id);
    });

    it('keeps a source_id the client chose, and finds the contact by it', async () => {
      const chosen = `app-install-${Date.now()}-a1b2c3`;
      const contact = await createContact({ source_id: chosen, name: 'Grace' });
      expect(contact.source_id).toBe(chosen);
      const shown = await request(contactUrl(stack.inboxIdentifier, chosen));
      expect(shown.status).toBe(200);
      expect(shown.body).toMatchObject({ id: contact.id, source_id: chosen, name: 'Grace' });

      // The same source_id again gives back that contact rather than a second one.
      const before = await contactCount(demoInboxId);
      const again = await createContact({ source_id: chosen });
      expect(again.id).toBe(contact.id);
      expect(await contactCount(demoInboxId)).toBe(before);
    });

    it('matches an existing contact by identifier, then email, then phone number, as Chatwoot does', async () => {
      const tag = Date.now();
      const phone = (suffix: number) => `+1555${String(tag + suffix).slice(-7)}`;
      const before = await contactCount(demoInboxId);

      // The identifier wins over another contact's email.
      const byIdentifier = await createContact({ identifier: `user-${tag}`, name: 'By identifier' });
      const holdsEmail = await createContact({ email: `first-${tag}@example.com`, name: 'Holds the email' });
      expect((await createContact({ identifier: `user-${tag}`, email: `first-${tag}@example.com` })).id).toBe(byIdentifier.id);

      // Without a known identifier, the email (in any case) wins over another contact's phone number.
      const byEmail = await createContact({ email: `second-${tag}@example.com`, name: 'By email' });
      const holdsPhone = await createContact({ phone_number: phone(1), name: 'Holds the phone' });
      expect((await createContact({ identifier: `unknown-${tag}`, email: `SECOND-${tag}@example.com`, phone_number: phone(1) })).id).toBe(byEmail.id);

      // The phone number alone.
      const byPhone = await createContact({ phone_number: phone(2), name: 'By phone' });
      expect((await createContact({ phone_number: phone(2) })).id).toBe(byPhone.id);
      expect(await contactCount(demoInboxId)).toBe(before + 5);

      // Nothing known: a new contact.
      const fresh = await createContact({ identifier: `other-${tag}`, email: `other-${tag}@example.com`, phone_number: phone(3) });
      expect([byIdentifier.id, holdsEmail.id, byEmail.id, holdsPhone.id, byPhone.id]).not.toContain(fresh.id);
      expect(await contactCount(demoInboxId)).toBe(before + 6);
    });

    it("leaves a matched contact's details as they were when a create only names its email, as Chatwoot's builder does", async () => {
      // ContactInboxWithContactBuilder finds the contact (find_contact || create_contact) and does not update it.
      const tag = Date.now();
      const owner = await createContact({ name: 'Original name', email: `owner-${tag}@example.com`, custom_attributes: { plan: 'gold' } });
      await createContact({ name: 'Mallory', email: `owner-${tag}@example.com`, phone_number: '+1 999 000 0000', custom_attributes: { plan: 'free' } });
      const [row] = await stack.bffSql.query<{ name: string; phone_number: string | null; custom_attributes: object }>('SELECT name, phone_number, custom_attributes FROM contacts WHERE id = $1', [owner.id]);
      expect(row).toEqual({ name: 'Original name', phone_number: null, custom_attributes: { plan: 'gold' } });
    });

    it("does not hand a caller who only names a contact's email or phone that contact's source_id, pubsub_token or conversations", async () => {
      // The source_id and pubsub_token are the capability to read a contact's conversations
      // (SPEC: "Whoever holds a contact identifier can read that contact's conversations"). Chatwoot
      // gives such a caller a new contact-inbox (a new source_id and pubsub_token) and none of the
      // earlier conversations.
      const tag = Date.now();
      const victim = await createContact({ name: 'Victim', email: `victim-${tag}@example.com`, phone_number: `+1666${String(tag).slice(-7)}` });
      const conversation = await openConversation(victim.source_id);
      expect((await send(stack.inboxIdentifier, victim.source_id, conversation.id, 'My card ends in 4242')).status).toBe(200);

      for (const body of [{ email: `victim-${tag}@example.com` }, { phone_number: `+1666${String(tag).slice(-7)}` }]) {
        const stranger = await createContact(body);
        expect(stranger.source_id, `source_id given for ${JSON.stringify(body)}`).not.toBe(victim.source_id);
        expect(stranger.pubsub_token, `pubsub_token given for ${JSON.stringify(body)}`).not.toBe(victim.pubsub_token);
        const listed = await request(`${contactUrl(stack.inboxIdentifier, stranger.source_id)}/conversations`);
        expect(listed.status).toBe(200);
        expect((listed.body as Conversation[]).map((item) => item.uuid)).not.toContain(conversation.uuid);
      }
    });

    it('refuses a malformed body with 400 invalid_request naming the field, and creates nothing', async () => {
      const before = await contactCount(demoInboxId);
      const cases: [object, string][] = [
        [{ email: 'not an email' }, 'email'],
        [{ phone_number: 'call me' }, 'phone_number'],
        [{ source_id: 'short' }, 'source_id'],
        [{ custom_attributes: 'plan=gold' }, 'custom_attributes'],
      ];
      for (const [body, field] of cases) {
        const response = await request(`${base()}/contacts`, { body });
        expectDeskError(response, 400, 'invalid_request');
        expect(response.body.errors[0].field, JSON.stringify(body)).toBe(field);
      }
      expectDeskError(await request(`${base()}/contacts`, { rawBody: '{"name":' }), 400, 'invalid_json');
      expect(await contactCount(demoInboxId)).toBe(before);
    });

    it('answers a create on an unknown inbox with 404 not_found', async () => {
      expectDeskError(await request(`${base('NoSuchInboxIdentifier0000000')}/contacts`, { body: { name: 'Nobody' } }), 404, 'not_found');
    });
  });

  describe('GET and PATCH /contacts/{contact_identifier}', () => {
    it('answers an unknown contact, and a contact of another inbox, with 404 not_found', async () => {
      expectDeskError(await request(contactUrl(stack.inboxIdentifier, 'NoSuchContactIdentifier00000')), 404, 'not_found');
      const other = await newInbox({ name: 'Elsewhere' });
      const theirs = await createContact({ name: 'Theirs' }, other.identifier);
      expectDeskError(await request(contactUrl(stack.inboxIdentifier, theirs.source_id)), 404, 'not_found');
      expect((await request(contactUrl(other.identifier, theirs.source_id))).status).toBe(200);
    });

    it('updates the given fields, deep-merges custom_attributes, and answers with the contact record', async () => {
      const contact = await createContact({ name: 'Linus', custom_attributes: { plan: { tier: 'gold', addons: { backup: true } }, locale: 'de', tags: ['a', 'b'] } });
      const response = await request(contactUrl(stack.inboxIdentifier, contact.source_id), {
        method: 'PATCH',
        body: { name: 'Linus T.', email: 'linus.patch@example.com', custom_attributes: { plan: { seats: 3, addons: { support: 'premium' } }, tags: ['c'] } },
      });
      expect(response.status).toBe(200);
      expectFields(response.body, CONTACT_RECORD_FIELDS, 'contact record');
      expect(response.body).toMatchObject({ id: contact.id, name: 'Linus T.', email: 'linus.patch@example.com', phone_number: null });
      expect(response.body.custom_attributes).toEqual({ plan: { tier: 'gold', seats: 3, addons: { backup: true, support: 'premium' } }, locale: 'de', tags: ['c'] });

      // Kept: the next read shows the update, and a conversation's contact carries the merged attributes.
      expect((await request(contactUrl(stack.inboxIdentifier, contact.source_id))).body).toMatchObject({ name: 'Linus T.', email: 'linus.patch@example.com' });
      const conversation = await openConversation(contact.source_id);
      expect(conversation.contact['custom_attributes']).toEqual(response.body.custom_attributes);
    });

    it('refuses a PATCH of an unknown contact with 404, and a malformed one with 400, changing nothing', async () => {
      const before = await contactCount(demoInboxId);
      expectDeskError(await request(contactUrl(stack.inboxIdentifier, 'NoSuchContactIdentifier00000'), { method: 'PATCH', body: { name: 'Ghost' } }), 404, 'not_found');
      expect(await contactCount(demoInboxId)).toBe(before);

      const contact = await createContact({ name: 'Unchanged', email: 'unchanged@example.com' });
      const refused = await request(contactUrl(stack.inboxIdentifier, contact.source_id), { method: 'PATCH', body: { name: 'Changed', email: 'nope' } });
      expectDeskError(refused, 400, 'invalid_request');
      expect((await request(contactUrl(stack.inboxIdentifier, contact.source_id))).body).toMatchObject({ name: 'Unchanged', email: 'unchanged@example.com' });
    });
  });

  describe('identity validation (identifier_hash)', () => {
    it('takes contacts without a hash on an inbox that does not require one, and still refuses a wrong hash with 401', async () => {
      const before = await contactCount(demoInboxId);
      const plain = await createContact({ identifier: `plain-${Date.now()}` });
      expect(await contactCount(demoInboxId)).toBe(before + 1);

      const refused = await request(`${base()}/contacts`, { body: { identifier: `wrong-${Date.now()}`, identifier_hash: 'f'.repeat(64) } });
      expectDeskError(refused, 401, 'unauthorized');
      expect(await contactCount(demoInboxId)).toBe(before + 1);
      expect(plain.source_id).toMatch(CAPABILITY);
    });

    it('on an inbox that requires it, refuses a create without a valid identifier_hash with 401 (not 500) and creates nothing', async () => {
      const inbox = await newInbox({ name: 'Members' }, { hmacMandatory: true });
      const identifier = 'member-1';
      const cases: object[] = [
        {},
        { name: 'No identity' },
        { identifier },
        { identifier, identifier_hash: 'not-a-hash' },
        { identifier, identifier_hash: hash(inbox.hmacToken, 'member-2') },
        { identifier, identifier_hash: hash('another inbox token', identifier) },
        { identifier_hash: hash(inbox.hmacToken, identifier) },
      ];
      for (const body of cases) expectDeskError(await request(`${base(inbox.identifier)}/contacts`, { body }), 401, 'unauthorized');
      expect(await contactCount(inbox.id)).toBe(0);
    });

    it('accepts identifier_hash = hex HMAC-SHA256 of the identifier with the inbox HMAC token, on create, get and patch', async () => {
      const inbox = await newInbox({ name: 'Members' }, { hmacMandatory: true });
      const identifier = 'member-42';
      const identifier_hash = hash(inbox.hmacToken, identifier);
      const contact = await createContact({ identifier, identifier_hash, name: 'Member 42' }, inbox.identifier);
      expect(contact.name).toBe('Member 42');

      const shown = await request(`${contactUrl(inbox.identifier, contact.source_id)}?identifier=${identifier}&identifier_hash=${identifier_hash}`);
      expect(shown.status).toBe(200);
      expect(shown.body).toMatchObject({ id: contact.id, name: 'Member 42' });

      const patched = await request(contactUrl(inbox.identifier, contact.source_id), { method: 'PATCH', body: { identifier, identifier_hash, name: 'Member Forty-Two' } });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ id: contact.id, name: 'Member Forty-Two', identifier });

      // The same proved identifier finds the same contact again.
      expect((await createContact({ identifier, identifier_hash }, inbox.identifier)).id).toBe(contact.id);
      expect(await contactCount(inbox.id)).toBe(1);
    });

    it('on an inbox that requires it, refuses GET and PATCH without a valid pair, or with the pair of another identifier, and PATCH changes nothing', async () => {
      const inbox = await newInbox({ name: 'Members' }, { hmacMandatory: true });
      const contact = await createContact({ identifier: 'member-7', identifier_hash: hash(inbox.hmacToken, 'member-7'), name: 'Seven' }, inbox.identifier);
      const someoneElse = `identifier=member-8&identifier_hash=${hash(inbox.hmacToken, 'member-8')}`;
      for (const query of ['', '?identifier=member-7', `?identifier=member-7&identifier_hash=${'0'.repeat(64)}`, `?${someoneElse}`]) {
        expectDeskError(await request(`${contactUrl(inbox.identifier, contact.source_id)}${query}`), 401, 'unauthorized');
      }
      for (const identity of [{}, { identifier: 'member-7', identifier_hash: '0'.repeat(64) }, { identifier: 'member-8', identifier_hash: hash(inbox.hmacToken, 'member-8') }]) {
        const refused = await request(contactUrl(inbox.identifier, contact.source_id), { method: 'PATCH', body: { ...identity, name: 'Hijacked', custom_attributes: { owned: true } } });
        expectDeskError(refused, 401, 'unauthorized');
      }
      const shown = await request(`${contactUrl(inbox.identifier, contact.source_id)}?identifier=member-7&identifier_hash=${hash(inbox.hmacToken, 'member-7')}`);
      expect(shown.body).toMatchObject({ name: 'Seven' });
      const [row] = await stack.bffSql.query<{ identifier: string; custom_attributes: object }>('SELECT identifier, custom_attributes FROM contacts WHERE id = $1', [contact.id]);
      expect(row).toEqual({ identifier: 'member-7', custom_attributes: {} });
    });

    it("on an inbox that requires it, a caller who proves their own identifier cannot take over another member's contact by naming that member's email", async () => {
      const inbox = await newInbox({ name: 'Members' }, { hmacMandatory: true });
      const victim = await createContact({ identifier: 'member-victim', identifier_hash: hash(inbox.hmacToken, 'member-victim'), email: 'victim.member@example.com' }, inbox.identifier);
      const conversation = await openConversation(victim.source_id, inbox.identifier);
      const attacker = await createContact({ identifier: 'member-attacker', identifier_hash: hash(inbox.hmacToken, 'member-attacker'), email: 'victim.member@example.com' }, inbox.identifier);
      expect(attacker.source_id).not.toBe(victim.source_id);
      expect(attacker.pubsub_token).not.toBe(victim.pubsub_token);
      const listed = await request(`${contactUrl(inbox.identifier, attacker.source_id)}/conversations`);
      expect((listed.body as Conversation[]).map((item) => item.uuid)).not.toContain(conversation.uuid);
      const [row] = await stack.bffSql.query<{ identifier: string }>('SELECT identifier FROM contacts WHERE id = $1', [victim.id]);
      expect(row!.identifier).toBe('member-victim');
    });
  });

  describe('conversations', () => {
    it("POST opens an open conversation, keeps its custom_attributes, and answers with Chatwoot's public conversation", async () => {
      const contact = await createContact({ name: 'Opener', email: 'opener@example.com' });
      const response = await request(`${contactUrl(stack.inboxIdentifier, contact.source_id)}/conversations`, { body: { custom_attributes: { order: 'A-1001', priority: 2 } } });
      expect(response.status).toBe(200);
      expectConversation(response.body);
      expect(response.body).toMatchObject({ status: 'open', contact_last_seen_at: 0, messages: [], contact: { id: contact.id, name: 'Opener', email: 'opener@example.com' } });
      const [inbox] = await stack.bffSql.query<{ display_id: number }>('SELECT display_id::int AS display_id FROM inboxes WHERE id = $1', [demoInboxId]);
      expect(response.body.inbox_id).toBe(inbox!.display_id);
      expect((await conversationRow(response.body.id)).custom_attributes).toEqual({ order: 'A-1001', priority: 2 });
    });

    it('GET lists only this contact’s conversations in this inbox, oldest first, each a public conversation', async () => {
      const contact = await createContact();
      const other = await createContact();
      expect((await request(`${contactUrl(stack.inboxIdentifier, contact.source_id)}/conversations`)).body).toEqual([]);
      const first = await openConversation(contact.source_id);
      const second = await openConversation(contact.source_id);
      await openConversation(other.source_id);
      const response = await request(`${contactUrl(stack.inboxIdentifier, contact.source_id)}/conversations`);
      expect(response.status).toBe(200);
      const list = response.body as Conversation[];
      list.forEach((item, index) => expectConversation(item, `conversations[${index}]`));
      expect(list.map((item) => item.id)).toEqual([first.id, second.id]);
    });

    it('GET of one conversation gives it with its messages; an unknown or malformed id is 404 not_found', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const sent = await send(stack.inboxIdentifier, contact.source_id, conversation.id, 'Where is my parcel?');
      expect(sent.status).toBe(200);
      const shown = await getConversation(stack.inboxIdentifier, contact.source_id, conversation.id);
      expectConversation(shown);
      expect(shown).toMatchObject({ id: conversation.id, uuid: conversation.uuid });
      expect(shown.messages[0]).toMatchObject({ id: sent.body.id, content: 'Where is my parcel?', message_type: 0 });
      for (const id of ['999999999', 'abc', '0', '-1', '12345678901234567890']) {
        expectDeskError(await request(conversationUrl(stack.inboxIdentifier, contact.source_id, id)), 404, 'not_found');
      }
    });

    it('keeps one conversation per contact on an inbox locked to a single conversation', async () => {
      const inbox = await newInbox({ name: 'Single thread' }, { lockToSingleConversation: true });
      const contact = await createContact({}, inbox.identifier);
      const first = await openConversation(contact.source_id, inbox.identifier);
      const again = await openConversation(contact.source_id, inbox.identifier, { custom_attributes: { second: true } });
      expect(again.id).toBe(first.id);
      expect(again.uuid).toBe(first.uuid);
      const listed = await request(`${contactUrl(inbox.identifier, contact.source_id)}/conversations`);
      expect((listed.body as Conversation[]).map((item) => item.id)).toEqual([first.id]);

      // Without the lock (the demo inbox), a second create is a second conversation.
      const free = await createContact();
      const one = await openConversation(free.source_id);
      expect((await openConversation(free.source_id)).id).not.toBe(one.id);
    });

    it('POST toggle_status resolves, adds the input_csat survey message when the inbox has CSAT on, and a second resolve changes nothing', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      await ask(stack.inboxIdentifier, contact.source_id, conversation.id, 'How do I return an item?');
      const response = await resolve(stack.inboxIdentifier, contact.source_id, conversation.id);
      expect(response.status).toBe(200);
      expectConversation(response.body);
      expect(response.body.status).toBe('resolved');
      const surveys = (response.body.messages as Message[]).filter((message) => message.content_type === 'input_csat');
      expect(surveys).toHaveLength(1);
      expect(surveys[0]).toMatchObject({ message_type: 3, content_type: 'input_csat', conversation_id: conversation.id });
      expectMessage(surveys[0]);

      const again = await resolve(stack.inboxIdentifier, contact.source_id, conversation.id);
      expect(again.status).toBe(200);
      expect(again.body.status).toBe('resolved');
      expect(again.body.messages).toEqual(response.body.messages);
      expect((await storedMessages(conversation.id)).filter((row) => row.content_type === 'input_csat')).toHaveLength(1);
    });

    it('POST toggle_status on an inbox with CSAT off resolves without a survey message', async () => {
      const inbox = await newInbox({ name: 'No survey', surveyEnabled: false });
      const contact = await createContact({}, inbox.identifier);
      const conversation = await openConversation(contact.source_id, inbox.identifier);
      const response = await resolve(inbox.identifier, contact.source_id, conversation.id);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: 'resolved', messages: [] });
      expect(await storedMessages(conversation.id)).toEqual([]);
      expectDeskError(await surveyOf(conversation.uuid), 404, 'not_found');
    });

    it('POST toggle_typing takes typing_status on or off from the query or the body and answers 200 with an empty body', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const url = `${conversationUrl(stack.inboxIdentifier, contact.source_id, conversation.id)}/toggle_typing`;
      for (const status of ['on', 'off']) {
        const byQuery = await request(`${url}?typing_status=${status}`, { method: 'POST' });
        expect(byQuery.status).toBe(200);
        expect(byQuery.body).toBe('');
        const byBody = await request(url, { body: { typing_status: status } });
        expect(byBody.status).toBe(200);
        expect(byBody.body).toBe('');
      }
      expectDeskError(await request(url, { method: 'POST' }), 400, 'invalid_request');
      expectDeskError(await request(`${url}?typing_status=maybe`, { method: 'POST' }), 400, 'invalid_request');
      expectDeskError(await request(url, { body: { typing_status: true } }), 400, 'invalid_request');
      expectDeskError(await request(`${conversationUrl(stack.inboxIdentifier, contact.source_id, 999999999)}/toggle_typing?typing_status=on`, { method: 'POST' }), 404, 'not_found');
    });

    it('POST update_last_seen answers 200 with an empty body, sets contact_last_seen_at and marks the earlier answers read', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const list = await ask(stack.inboxIdentifier, contact.source_id, conversation.id, 'Do you ship abroad?');
      const answer = list.filter((message) => message.message_type === 1).at(-1)!;
      expect((await conversationRow(conversation.id)).customer_last_read_id).toBeLessThan(answer.id);

      const startedAt = Math.floor(Date.now() / 1000);
      const response = await request(`${conversationUrl(stack.inboxIdentifier, contact.source_id, conversation.id)}/update_last_seen`, { method: 'POST' });
      expect(response.status).toBe(200);
      expect(response.body).toBe('');
      expect((await conversationRow(conversation.id)).customer_last_read_id).toBeGreaterThanOrEqual(answer.id);
      const shown = await getConversation(stack.inboxIdentifier, contact.source_id, conversation.id);
      expect(shown.contact_last_seen_at).toBeGreaterThanOrEqual(startedAt - 1);
      expect(shown.contact_last_seen_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
    });
  });

  describe('messages', () => {
    it("POST stores the contact's message as incoming and answers with Chatwoot's public message, echo_id only over the socket", async () => {
      const contact = await createContact({ name: 'Sender', email: 'sender@example.com' });
      const conversation = await openConversation(contact.source_id);
      const startedAt = Math.floor(Date.now() / 1000);
      const response = await send(stack.inboxIdentifier, contact.source_id, conversation.id, 'Is my order on its way?', 'echo-http-1');
      expect(response.status).toBe(200);
      expectMessage(response.body);
      expect(response.body).toMatchObject({ content: 'Is my order on its way?', message_type: 0, content_type: 'text', content_attributes: {}, conversation_id: conversation.id });
      expect(response.body.sender).toMatchObject({ id: contact.id, name: 'Sender', type: 'contact' });
      expect(response.body).not.toHaveProperty('echo_id');
      expect(response.body.created_at).toBeGreaterThanOrEqual(startedAt - 1);
      expect(response.body.created_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
      const stored = (await storedMessages(conversation.id)).filter((row) => row.author === 'customer');
      expect(stored.map((row) => [row.id, row.text])).toEqual([[response.body.id, 'Is my order on its way?']]);
    });

    it('passes every message to the AI, whose answer comes back as an outgoing message from the bot', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const list = await ask(stack.inboxIdentifier, contact.source_id, conversation.id, 'How do I return an item?');
      list.forEach((message, index) => expectMessage(message, `messages[${index}]`));
      const [question, answer] = list;
      expect(question).toMatchObject({ message_type: 0, content: 'How do I return an item?', sender: { type: 'contact' } });
      expect(answer).toMatchObject({ message_type: 1, content_type: 'text', conversation_id: conversation.id, sender: { type: 'agent_bot' } });
      expect(answer!.content!.length).toBeGreaterThan(0);
    });

    it('GET gives the latest 20 messages oldest first, and before=<id> the 20 before that', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      for (let index = 1; index <= 11; index++) {
        expect((await send(stack.inboxIdentifier, contact.source_id, conversation.id, `Question number ${index}: do you ship abroad?`)).status).toBe(200);
      }
      await stack.bff.relay.settled();
      const all = await until(
        async () => (await getConversation(stack.inboxIdentifier, contact.source_id, conversation.id)).messages,
        (messages) => messages.length >= 22,
        'eleven questions and their answers',
      );
      const ids = all.map((message) => message.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));

      const latest = await listMessages(stack.inboxIdentifier, contact.source_id, conversation.id);
      expect(latest.map((message) => message.id)).toEqual(ids.slice(-20));
      latest.forEach((message, index) => expectMessage(message, `messages[${index}]`));
      const older = await listMessages(stack.inboxIdentifier, contact.source_id, conversation.id, latest[0]!.id);
      expect(older.map((message) => message.id)).toEqual(ids.slice(0, -20).slice(-20));
      expect(await listMessages(stack.inboxIdentifier, contact.source_id, conversation.id, ids[0])).toEqual([]);
      expectDeskError(await request(`${conversationUrl(stack.inboxIdentifier, contact.source_id, conversation.id)}/messages?before=abc`), 400, 'invalid_request');
    });

    it("keeps a handover notice out of the messages (an activity message), and shows a person's answer as outgoing from a user", async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      await ask(stack.inboxIdentifier, contact.source_id, conversation.id, 'Where is my parcel?');
      expect((await engine(await engineId(conversation.uuid), 'handover', { reason: 'customer asked' })).status).toBe(200);
      await stack.bff.feed.catchUp();
      expect((await storedMessages(conversation.id)).some((row) => row.author === 'system' && row.text === NOTICES.handover)).toBe(true);
      expect((await engine(await engineId(conversation.uuid), 'human-messages', { text: 'Hi, Dana here. Let me check.', author_name: 'Dana' })).status).toBe(200);
      await stack.bff.feed.catchUp();

      const listed = await listMessages(stack.inboxIdentifier, contact.source_id, conversation.id);
      const shown = await getConversation(stack.inboxIdentifier, contact.source_id, conversation.id);
      for (const messages of [listed, shown.messages]) {
        expect(messages.map((message) => message.content)).not.toContain(NOTICES.handover);
        expect(messages.every((message) => message.message_type !== 2)).toBe(true);
        expect(messages.at(-1)).toMatchObject({ content: 'Hi, Dana here. Let me check.', message_type: 1, sender: { type: 'user', name: 'Dana' } });
      }
    });

    it('takes 150,000 characters, and refuses 150,001 with 400 invalid_request on content, storing nothing', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const refused = await send(stack.inboxIdentifier, contact.source_id, conversation.id, 'a'.repeat(150_001));
      expectDeskError(refused, 400, 'invalid_request');
      expect(refused.body.errors[0].field).toBe('content');
      expect(await storedMessages(conversation.id)).toEqual([]);

      const taken = await send(stack.inboxIdentifier, contact.source_id, conversation.id, 'é'.repeat(150_000));
      expect(taken.status).toBe(200);
      expect((taken.body.content as string).length).toBe(150_000);
    });

    it('refuses an empty message or an unknown field with 400, and a malformed echo_id, storing nothing', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const url = `${conversationUrl(stack.inboxIdentifier, contact.source_id, conversation.id)}/messages`;
      for (const body of [{}, { content: '' }, { content: '   ' }, { content: 'hi', private: true }, { content: 'hi', echo_id: 'has spaces in it' }]) {
        expectDeskError(await request(url, { body }), 400, 'invalid_request');
      }
      expect(await storedMessages(conversation.id)).toEqual([]);
    });

    it('refuses a message to a resolved conversation with 409 invalid_state and stores nothing', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      expect((await resolve(stack.inboxIdentifier, contact.source_id, conversation.id)).status).toBe(200);
      const before = await storedMessages(conversation.id);
      expectDeskError(await send(stack.inboxIdentifier, contact.source_id, conversation.id, 'One more thing'), 409, 'invalid_state');
      expect(await storedMessages(conversation.id)).toEqual(before);
    });

    it('takes at most 200 messages a minute in one conversation: the 201st is 429 rate_limited and not stored, other conversations go on, and the next minute takes more', async () => {
      clock.frozenAt = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
      try {
        const contact = await createContact();
        const conversation = await openConversation(contact.source_id);
        const other = await openConversation(contact.source_id);
        for (let batch = 0; batch < 200; batch += 25) {
          const answers = await Promise.all(Array.from({ length: 25 }, (_, index) => send(stack.inboxIdentifier, contact.source_id, conversation.id, `m${batch + index}`)));
          expect(answers.map((answer) => answer.status)).toEqual(Array(25).fill(200));
        }
        const customerMessages = async () => (await storedMessages(conversation.id)).filter((row) => row.author === 'customer').length;
        expect(await customerMessages()).toBe(200);

        const refused = await send(stack.inboxIdentifier, contact.source_id, conversation.id, 'one too many');
        expectDeskError(refused, 429, 'rate_limited');
        expect(await customerMessages()).toBe(200);
        expect((await storedMessages(conversation.id)).map((row) => row.text)).not.toContain('one too many');

        expect((await send(stack.inboxIdentifier, contact.source_id, other.id, 'another conversation')).status).toBe(200);

        clock.frozenAt += 60_000;
        expect((await send(stack.inboxIdentifier, contact.source_id, conversation.id, 'a new minute')).status).toBe(200);
        expect(await customerMessages()).toBe(201);
      } finally {
        clock.frozenAt = undefined;
      }
    });
  });

  describe('PATCH messages/{message_id} (submitted_values)', () => {
    it('stores choices and form values (arrays) on an answer and shows them in content_attributes.submitted_values', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const list = await ask(stack.inboxIdentifier, contact.source_id, conversation.id, 'How do I return an item?');
      const answer = list.find((message) => message.message_type === 1)!;

      const choice = [{ title: 'Yes, please', value: 'yes' }];
      const chosen = await patchMessage(stack.inboxIdentifier, contact.source_id, conversation.id, answer.id, choice);
      expect(chosen.status).toBe(200);
      expectMessage(chosen.body);
      expect(chosen.body).toMatchObject({ id: answer.id, message_type: 1, content_attributes: { submitted_values: choice } });

      const form = [{ name: 'email', value: 'form@example.com' }, { name: 'order', value: 'A-7' }];
      const filled = await patchMessage(stack.inboxIdentifier, contact.source_id, conversation.id, answer.id, form);
      expect(filled.status).toBe(200);
      expect(filled.body.content_attributes.submitted_values).toEqual(form);
      const listed = await listMessages(stack.inboxIdentifier, contact.source_id, conversation.id);
      expect(listed.find((message) => message.id === answer.id)!.content_attributes['submitted_values']).toEqual(form);
    });

    it("passes a choice picked by PATCH on to the AI as the contact's next message, once, and the AI answers it", async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const list = await ask(stack.inboxIdentifier, contact.source_id, conversation.id, 'exchange');
      const offer = list.find((message) => message.content_type === 'input_select')!;
      expect(offer.content_attributes['items']).toContainEqual({ title: 'Exchanging an item for another size', value: 'Exchanging an item for another size' });

      const pick = [{ title: 'Exchanging an item for another size', value: 'Exchanging an item for another size' }];
      expect((await patchMessage(stack.inboxIdentifier, contact.source_id, conversation.id, offer.id, pick)).status).toBe(200);
      await stack.bff.relay.settled();
      const answered = await until(
        () => listMessages(stack.inboxIdentifier, contact.source_id, conversation.id),
        (messages) => messages.some((message) => message.message_type === 1 && message.id > offer.id && /quickest way to exchange/.test(message.content ?? '')),
        'the answer to the choice',
      );
      const picked = answered.filter((message) => message.message_type === 0 && message.content === 'Exchanging an item for another size');
      expect(picked).toHaveLength(1);

      // Picking again changes the stored values, not the conversation.
      expect((await patchMessage(stack.inboxIdentifier, contact.source_id, conversation.id, offer.id, pick)).status).toBe(200);
      await stack.bff.relay.settled();
      const again = await listMessages(stack.inboxIdentifier, contact.source_id, conversation.id);
      expect(again.filter((message) => message.message_type === 0)).toHaveLength(2);
      expect(again.length).toBe(answered.length);
    });

    it("refuses values on the contact's own message and a rating on a message that is not the survey with 422, changing nothing", async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const list = await ask(stack.inboxIdentifier, contact.source_id, conversation.id, 'Do you ship abroad?');
      const own = list.find((message) => message.message_type === 0)!;
      const answer = list.find((message) => message.message_type === 1)!;
      expectDeskError(await patchMessage(stack.inboxIdentifier, contact.source_id, conversation.id, own.id, [{ value: 'x' }]), 422, 'unprocessable');
      expectDeskError(await patchMessage(stack.inboxIdentifier, contact.source_id, conversation.id, answer.id, { csat_survey_response: { rating: 5 } }), 422, 'unprocessable');
      expectDeskError(await patchMessage(stack.inboxIdentifier, contact.source_id, conversation.id, answer.id, 'yes'), 400, 'invalid_request');
      const after = await listMessages(stack.inboxIdentifier, contact.source_id, conversation.id);
      for (const message of after) expect(message.content_attributes).not.toHaveProperty('submitted_values');
      expect((await stack.bffSql.query<{ n: number }>('SELECT count(*)::int AS n FROM surveys WHERE conversation_id = $1', [conversation.id]))[0]!.n).toBe(0);
    });

    it('answers the survey with {csat_survey_response: {rating, feedback_message}}, which the survey routes then show; a rating outside 1–5 is 400', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const resolved = await resolve(stack.inboxIdentifier, contact.source_id, conversation.id);
      const survey = (resolved.body.messages as Message[]).find((message) => message.content_type === 'input_csat')!;

      for (const rating of [0, 6, 4.5]) {
        expectDeskError(await patchMessage(stack.inboxIdentifier, contact.source_id, conversation.id, survey.id, { csat_survey_response: { rating } }), 400, 'invalid_request');
      }
      expect((await surveyOf(conversation.uuid)).body.csat_survey_response).toBeNull();

      const answered = await patchMessage(stack.inboxIdentifier, contact.source_id, conversation.id, survey.id, { csat_survey_response: { rating: 4, feedback_message: 'Quick and clear' } });
      expect(answered.status).toBe(200);
      expectMessage(answered.body);
      expect(answered.body).toMatchObject({ id: survey.id, content_type: 'input_csat', content_attributes: { submitted_values: { csat_survey_response: { rating: 4, feedback_message: 'Quick and clear' } } } });
      const shown = await surveyOf(conversation.uuid);
      expect(shown.status).toBe(200);
      expect(shown.body.csat_survey_response).toMatchObject({ rating: 4, feedback_message: 'Quick and clear' });
    });

    it('lets a rating be changed within 14 days of the answer and refuses a change after that with 422, keeping the rating', async () => {
      clock.frozenAt = Date.now();
      try {
        const contact = await createContact();
        const conversation = await openConversation(contact.source_id);
        const resolved = await resolve(stack.inboxIdentifier, contact.source_id, conversation.id);
        const survey = (resolved.body.messages as Message[]).find((message) => message.content_type === 'input_csat')!;
        const rate = (rating: number) => patchMessage(stack.inboxIdentifier, contact.source_id, conversation.id, survey.id, { csat_survey_response: { rating } });
        expect((await rate(2)).status).toBe(200);
        clock.frozenAt += 13 * DAY_MS;
        expect((await rate(3)).status).toBe(200);
        clock.frozenAt += 2 * DAY_MS;
        expectDeskError(await rate(5), 422, 'unprocessable');
        expect((await surveyOf(conversation.uuid)).body.csat_survey_response).toMatchObject({ rating: 3 });
      } finally {
        clock.frozenAt = undefined;
      }
    });

    it('locks a survey that was never answered 14 days after it was asked, as Chatwoot does (422)', async () => {
      // Chatwoot's check_csat_locked: (now.to_date - @message.created_at.to_date) > 14, i.e. from the survey message.
      clock.frozenAt = Date.now();
      try {
        const contact = await createContact();
        const conversation = await openConversation(contact.source_id);
        const resolved = await resolve(stack.inboxIdentifier, contact.source_id, conversation.id);
        const survey = (resolved.body.messages as Message[]).find((message) => message.content_type === 'input_csat')!;
        clock.frozenAt += 15 * DAY_MS;
        const late = await patchMessage(stack.inboxIdentifier, contact.source_id, conversation.id, survey.id, { csat_survey_response: { rating: 1 } });
        expectDeskError(late, 422, 'unprocessable');
        expect((await surveyOf(conversation.uuid)).body.csat_survey_response).toBeNull();
      } finally {
        clock.frozenAt = undefined;
      }
    });

    it('answers an unknown message, or a message of another conversation, with 404 not_found', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const elsewhere = await openConversation(contact.source_id);
      const list = await ask(stack.inboxIdentifier, contact.source_id, elsewhere.id, 'Do you ship abroad?');
      const foreign = list.find((message) => message.message_type === 1)!;
      expectDeskError(await patchMessage(stack.inboxIdentifier, contact.source_id, conversation.id, 999999999, [{ value: 'x' }]), 404, 'not_found');
      expectDeskError(await patchMessage(stack.inboxIdentifier, contact.source_id, conversation.id, foreign.id, [{ value: 'x' }]), 404, 'not_found');
      const after = await listMessages(stack.inboxIdentifier, contact.source_id, elsewhere.id);
      expect(after.find((message) => message.id === foreign.id)!.content_attributes).not.toHaveProperty('submitted_values');
    });
  });

  describe('GET and PUT /public/api/v1/csat_survey/{uuid}', () => {
    it('gives the survey of a resolved conversation and stores an answer put to it', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const resolved = await resolve(stack.inboxIdentifier, contact.source_id, conversation.id);
      const question = (resolved.body.messages as Message[]).find((message) => message.content_type === 'input_csat')!;

      const shown = await surveyOf(conversation.uuid);
      expect(shown.status).toBe(200);
      expectFields(shown.body, { id: 'integer', csat_survey_response: 'null', display_type: 'string', content: 'string', inbox_name: 'string', locale: 'string', created_at: 'string' }, 'survey');
      expect(shown.body).toMatchObject({ id: question.id, inbox_name: 'Demo store' });

      const put = await request(`${stack.url}/public/api/v1/csat_survey/${conversation.uuid}`, { method: 'PUT', body: { message: { submitted_values: { csat_survey_response: { rating: 5, feedback_message: 'Great' } } } } });
      expect(put.status).toBe(200);
      expect(put.body.csat_survey_response).toMatchObject({ rating: 5, feedback_message: 'Great' });
      expect((await surveyOf(conversation.uuid)).body.csat_survey_response).toMatchObject({ rating: 5, feedback_message: 'Great' });

      const bad = await request(`${stack.url}/public/api/v1/csat_survey/${conversation.uuid}`, { method: 'PUT', body: { message: { submitted_values: { csat_survey_response: { rating: 9 } } } } });
      expectDeskError(bad, 400, 'invalid_request');
      expect((await surveyOf(conversation.uuid)).body.csat_survey_response).toMatchObject({ rating: 5 });
    });

    it("shows an answer given through PUT /csat_survey on the survey message's submitted_values, as an answer by PATCH does", async () => {
      // Chatwoot's CsatSurveyController#update updates the input_csat message's submitted_values.
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const resolved = await resolve(stack.inboxIdentifier, contact.source_id, conversation.id);
      const question = (resolved.body.messages as Message[]).find((message) => message.content_type === 'input_csat')!;
      const put = await request(`${stack.url}/public/api/v1/csat_survey/${conversation.uuid}`, { method: 'PUT', body: { message: { submitted_values: { csat_survey_response: { rating: 2, feedback_message: 'Slow' } } } } });
      expect(put.status).toBe(200);
      const listed = await listMessages(stack.inboxIdentifier, contact.source_id, conversation.id);
      expect(listed.find((message) => message.id === question.id)!.content_attributes).toMatchObject({ submitted_values: { csat_survey_response: { rating: 2, feedback_message: 'Slow' } } });
    });

    it('answers an unknown uuid, or a conversation that was never asked for a rating, with 404 not_found', async () => {
      expectDeskError(await surveyOf('00000000-0000-4000-8000-000000000000'), 404, 'not_found');
      expectDeskError(await surveyOf('not-a-uuid'), 404, 'not_found');
      const contact = await createContact();
      const open = await openConversation(contact.source_id);
      expectDeskError(await surveyOf(open.uuid), 404, 'not_found');
      const put = await request(`${stack.url}/public/api/v1/csat_survey/${open.uuid}`, { method: 'PUT', body: { message: { submitted_values: { csat_survey_response: { rating: 5 } } } } });
      expectDeskError(put, 404, 'not_found');
      expect((await stack.bffSql.query<{ n: number }>('SELECT count(*)::int AS n FROM surveys WHERE conversation_id = $1', [open.id]))[0]!.n).toBe(0);
    });
  });

  describe('scoping: every lookup belongs to the inbox and the contact', () => {
    /** Every route of one conversation, as a contact of `inbox` with `source` would call it. */
    const conversationRoutes = (inbox: string, source: string, id: number, messageId: number): [string, string, { method?: string; body?: unknown }][] => [
      ['GET conversation', conversationUrl(inbox, source, id), {}],
      ['POST toggle_status', `${conversationUrl(inbox, source, id)}/toggle_status`, { method: 'POST' }],
      ['POST toggle_typing', `${conversationUrl(inbox, source, id)}/toggle_typing?typing_status=on`, { method: 'POST' }],
      ['POST update_last_seen', `${conversationUrl(inbox, source, id)}/update_last_seen`, { method: 'POST' }],
      ['POST messages', `${conversationUrl(inbox, source, id)}/messages`, { body: { content: 'I am not who you think' } }],
      ['GET messages', `${conversationUrl(inbox, source, id)}/messages`, {}],
      ['PATCH message', `${conversationUrl(inbox, source, id)}/messages/${messageId}`, { method: 'PATCH', body: { submitted_values: [{ value: 'stolen' }] } }],
    ];

    async function victimConversation(inbox = stack.inboxIdentifier) {
      const owner = await createContact({}, inbox);
      const conversation = await openConversation(owner.source_id, inbox);
      const list = await ask(inbox, owner.source_id, conversation.id, 'How do I return an item?');
      const answer = list.find((message) => message.message_type === 1)!;
      const state = async () => ({ row: await conversationRow(conversation.id), messages: await storedMessages(conversation.id), listed: await listMessages(inbox, owner.source_id, conversation.id) });
      return { owner, conversation, answer, state };
    }

    it("refuses another contact of the same inbox every route of a conversation that is not theirs with 404, and nothing changes", async () => {
      const { conversation, answer, state } = await victimConversation();
      const before = await state();
      const stranger = await createContact();
      for (const [what, url, options] of conversationRoutes(stack.inboxIdentifier, stranger.source_id, conversation.id, answer.id)) {
        const response = await request(url, options);
        expect(response.status, what).toBe(404);
        expectDeskError(response, 404, 'not_found');
      }
      expect((await request(`${contactUrl(stack.inboxIdentifier, stranger.source_id)}/conversations`)).body).toEqual([]);
      await stack.bff.relay.settled();
      expect(await state()).toEqual(before);
    });

    it('refuses a contact of another inbox, even one with the same source_id, every route of the conversation with 404, and nothing changes', async () => {
      const shared = `shared-source-${Date.now()}`;
      const owner = await createContact({ source_id: shared });
      const conversation = await openConversation(shared);
      const list = await ask(stack.inboxIdentifier, shared, conversation.id, 'Do you ship abroad?');
      const answer = list.find((message) => message.message_type === 1)!;
      const before = { row: await conversationRow(conversation.id), messages: await storedMessages(conversation.id) };

      const other = await newInbox({ name: 'Other shop' });
      const twin = await createContact({ source_id: shared }, other.identifier);
      expect(twin.id).not.toBe(owner.id);
      for (const [what, url, options] of conversationRoutes(other.identifier, shared, conversation.id, answer.id)) {
        const response = await request(url, options);
        expect(response.status, what).toBe(404);
        expectDeskError(response, 404, 'not_found');
      }
      expect((await request(`${contactUrl(other.identifier, shared)}/conversations`)).body).toEqual([]);
      await stack.bff.relay.settled();
      expect({ row: await conversationRow(conversation.id), messages: await storedMessages(conversation.id) }).toEqual(before);
    });
  });

  describe('CORS', () => {
    it("follows the inbox's allowlist: a listed origin is answered with Access-Control-Allow-Origin, an unlisted one is 403 origin_not_allowed without it and changes nothing", async () => {
      const inbox = await newInbox({ name: 'Listed' }, { allowedOrigins: ['https://shop.example'] });
      const listed = await request(base(inbox.identifier), { headers: { origin: 'https://shop.example' } });
      expect(listed.status).toBe(200);
      expect(listed.headers.get('access-control-allow-origin')).toBe('https://shop.example');

      const preflight = await fetch(`${base(inbox.identifier)}/contacts/some-contact-id/conversations/1/messages/2`, {
        method: 'OPTIONS',
        headers: { origin: 'https://shop.example', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'content-type' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(preflight.headers.get('access-control-allow-methods')).toContain('PATCH');

      const contact = await createContact({ name: 'Listed contact' }, inbox.identifier);
      for (const [url, options] of [
        [base(inbox.identifier), {}],
        [`${base(inbox.identifier)}/contacts`, { body: { name: 'From evil' } }],
        [contactUrl(inbox.identifier, contact.source_id), {}],
        [`${contactUrl(inbox.identifier, contact.source_id)}/conversations`, { body: {} }],
      ] as [string, { body?: unknown }][]) {
        const refused = await request(url, { ...options, headers: { origin: 'https://evil.example' } });
        expectDeskError(refused, 403, 'origin_not_allowed');
        expect(refused.headers.get('access-control-allow-origin'), url).toBeNull();
      }
      expect(await contactCount(inbox.id)).toBe(1);
      expect((await request(`${contactUrl(inbox.identifier, contact.source_id)}/conversations`)).body).toEqual([]);
    });

    it('is open to any origin on an inbox without an allowlist, and to requests without an Origin (servers, apps)', async () => {
      for (const origin of ['https://anywhere.example', 'http://localhost:3000']) {
        const response = await request(base(), { headers: { origin } });
        expect(response.status).toBe(200);
        expect(response.headers.get('access-control-allow-origin')).toBe(origin);
        const created = await request(`${base()}/contacts`, { body: { name: 'Anywhere' }, headers: { origin } });
        expect(created.status).toBe(200);
        expect(created.headers.get('access-control-allow-origin')).toBe(origin);
      }
      const inbox = await newInbox({ name: 'Listed' }, { allowedOrigins: ['https://shop.example'] });
      expect((await request(base(inbox.identifier))).status).toBe(200);
    });
  });

  describe('the OpenAPI document', () => {
    const CLIENT_API = [
      'get /public/api/v1/inboxes/{inbox_identifier}',
      'post /public/api/v1/inboxes/{inbox_identifier}/contacts',
      'get /public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}',
      'patch /public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}',
      'post /public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations',
      'get /public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations',
      'get /public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations/{conversation_id}',
      'post /public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations/{conversation_id}/toggle_status',
      'post /public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations/{conversation_id}/toggle_typing',
      'post /public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations/{conversation_id}/update_last_seen',
      'post /public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations/{conversation_id}/messages',
      'get /public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations/{conversation_id}/messages',
      'patch /public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations/{conversation_id}/messages/{message_id}',
      'get /public/api/v1/csat_survey/{uuid}',
      'put /public/api/v1/csat_survey/{uuid}',
    ];
    const SURVEY_PAGE = ['get /survey/responses/{uuid}', 'post /survey/responses/{uuid}'];

    interface Document {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: { $ref?: string; properties?: Record<string, unknown> } }> }> }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    }
    const documentOf = async (): Promise<Document> => {
      const response = await request(`${stack.url}/openapi.json`);
      expect(response.status).toBe(200);
      return response.body as Document;
    };

    it('is a valid OpenAPI 3.1 document listing every Client API route and the survey page', async () => {
      const document = await documentOf();
      const validator = new Validator();
      const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      for (const route of [...CLIENT_API, ...SURVEY_PAGE]) {
        const [method, path] = route.split(' ') as [string, string];
        expect(document.paths[path]?.[method], route).toBeDefined();
      }
    });

    it('describes the Client API errors in the bad_request_error shape {description, errors[]} that the routes answer with', async () => {
      const document = await documentOf();
      for (const route of CLIENT_API) {
        const [method, path] = route.split(' ') as [string, string];
        const responses = document.paths[path]![method]!.responses;
        const errorStatuses = Object.keys(responses).filter((status) => Number(status) >= 400);
        expect(errorStatuses, `${route} declares its errors`).toContain('404');
        for (const status of errorStatuses) {
          let schema = responses[status]!.content?.['application/json']?.schema;
          if (schema?.$ref) schema = document.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
          expect(Object.keys(schema?.properties ?? {}), `${route} ${status}`).toEqual(expect.arrayContaining(['description', 'errors']));
        }
      }
    });
  });
});
