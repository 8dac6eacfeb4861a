import { openSecretBox } from '../../shared/server/index.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DRIVERS } from '../../test/stack.ts';
import { CLIENT_API_LIMITS } from './limits.ts';
import {
  expectDeskError,
  newClientAddress,
  requestFrom,
  useClientApi,
  type Contact,
} from '../../test/client-api-fixture.ts';

/**
 * Issue 12, finding 2: the Client API takes no credential, so whoever knows an inbox identifier
 * could flood it. Limits per client address, per inbox, on creating contacts (per address) and on
 * sending messages (per contact), each a 429 with Retry-After in the bad_request_error shape. The
 * BFF's clock is frozen a second into a minute, so that a test's requests fall in one window.
 */
describe.each(DRIVERS)('helpdesk Client API: limits, on $name', (driver) => {
  const api = useClientApi(driver);
  const { base, contactUrl, conversationUrl, newInbox, storedMessages, contactCount } = api;
  const minuteStart = () => Math.floor(Date.now() / 60_000) * 60_000;
  beforeEach(() => {
    api.clock.frozenAt = minuteStart() + 1_000;
  });
  afterEach(() => {
    api.clock.frozenAt = undefined;
  });
  const nextMinute = () => {
    api.clock.frozenAt = api.clock.frozenAt! + 60_000;
  };

  type Response = Awaited<ReturnType<typeof requestFrom>>;
  /** 429 rate_limited as bad_request_error, with the seconds to the end of the frozen minute in Retry-After. */
  function expectLimited(response: Response): void {
    expectDeskError(response, 429, 'rate_limited');
    expect(response.headers.get('retry-after')).toBe('59');
  }
  /** Sends `count` requests from `address`, twenty at a time, and gives their statuses. */
  async function flood(
    address: string,
    count: number,
    url: string,
    options: Parameters<typeof requestFrom>[2] = {},
  ): Promise<number[]> {
    const statuses: number[] = [];
    for (let sent = 0; sent < count; sent += 20) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(20, count - sent) }, () => requestFrom(address, url, options)),
      );
      statuses.push(...batch.map((response) => response.status));
    }
    return statuses;
  }
  async function contactFrom(address: string, inbox: string, body: object = {}): Promise<Contact> {
    const response = await requestFrom(address, `${base(inbox)}/contacts`, { body });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as Contact;
  }

  it(`refuses a client address its request over ${CLIENT_API_LIMITS.requestsPerAddress} a minute on every route with 429 and Retry-After, while another address goes on`, async () => {
    expect(CLIENT_API_LIMITS.requestsPerAddress).toBe(120);
    const inbox = await newInbox({ name: 'Flooded from one address' });
    const flooder = newClientAddress();
    expect(await flood(flooder, 120, base(inbox.identifier))).toEqual(Array(120).fill(200));

    const refused = await requestFrom(flooder, base(inbox.identifier));
    expectLimited(refused);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('120');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    // Every route of the Client API counts, also those of no inbox and those that would be 404.
    expectLimited(await requestFrom(flooder, `${base(inbox.identifier)}/contacts`, { body: { name: 'One more' } }));
    expectLimited(await requestFrom(flooder, base('NoSuchInboxIdentifier0000000')));
    expectLimited(
      await requestFrom(flooder, `${api.stack.url}/public/api/v1/csat_survey/00000000-0000-0000-0000-000000000000`),
    );
    // The survey page (HTML) counts against the same limit.
    expect(
      (await requestFrom(flooder, `${api.stack.url}/survey/responses/00000000-0000-0000-0000-000000000000`)).status,
    ).toBe(429);

    const other = await requestFrom(newClientAddress(), base(inbox.identifier));
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('119');

    nextMinute();
    expect((await requestFrom(flooder, base(inbox.identifier))).status).toBe(200);
  });

  it(`refuses an inbox its request over ${CLIENT_API_LIMITS.requestsPerInbox} a minute from all addresses together, while another inbox goes on`, async () => {
    expect(CLIENT_API_LIMITS.requestsPerInbox).toBe(1_200);
    const flooded = await newInbox({ name: 'Flooded from many addresses' });
    const quiet = await newInbox({ name: 'Next door' });
    for (let address = 0; address < 10; address++) {
      expect(await flood(newClientAddress(), 120, base(flooded.identifier))).toEqual(Array(120).fill(200));
    }
    const newcomer = newClientAddress();
    const refused = await requestFrom(newcomer, base(flooded.identifier));
    expectLimited(refused);
    expect(refused.body.description).toMatch(/inbox/);
    expect((await requestFrom(newcomer, base(quiet.identifier))).status).toBe(200);
    const contact = await contactFrom(newClientAddress(), quiet.identifier);
    expect(
      (
        await requestFrom(newClientAddress(), `${contactUrl(quiet.identifier, contact.source_id)}/conversations`, {
          body: {},
        })
      ).status,
    ).toBe(200);

    nextMinute();
    expect((await requestFrom(newcomer, base(flooded.identifier))).status).toBe(200);
  });

  it(`lets one address create at most ${CLIENT_API_LIMITS.contactsPerAddress} contacts a minute: the next is 429 and creates nothing, other routes and other addresses go on`, async () => {
    expect(CLIENT_API_LIMITS.contactsPerAddress).toBe(20);
    const inbox = await newInbox({ name: 'Contact farm' });
    const farmer = newClientAddress();
    expect(await flood(farmer, 20, `${base(inbox.identifier)}/contacts`, { body: {} })).toEqual(Array(20).fill(200));
    expect(await contactCount(inbox.id)).toBe(20);

    expectLimited(await requestFrom(farmer, `${base(inbox.identifier)}/contacts`, { body: { name: 'Twenty-first' } }));
    // Failed identity checks count too: a create is refused before its identifier_hash is looked at.
    expectLimited(
      await requestFrom(farmer, `${base(inbox.identifier)}/contacts`, {
        body: { identifier: 'someone', identifier_hash: 'f'.repeat(64) },
      }),
    );
    expect(await contactCount(inbox.id)).toBe(20);
    expect((await requestFrom(farmer, base(inbox.identifier))).status).toBe(200);
    await contactFrom(newClientAddress(), inbox.identifier, { name: 'Someone else' });
    expect(await contactCount(inbox.id)).toBe(21);

    nextMinute();
    await contactFrom(farmer, inbox.identifier, { name: 'Next minute' });
  });

  it(`lets one contact send at most ${CLIENT_API_LIMITS.messagesPerContact} messages a minute over all its conversations: the next is 429 and not stored, another contact goes on`, async () => {
    expect(CLIENT_API_LIMITS.messagesPerContact).toBe(30);
    const inbox = await newInbox({ name: 'Chatty' });
    const address = newClientAddress();
    const contact = await contactFrom(address, inbox.identifier);
    const open = async (source: string) =>
      (await requestFrom(address, `${contactUrl(inbox.identifier, source)}/conversations`, { body: {} })).body
        .id as number;
    const [first, second] = [await open(contact.source_id), await open(contact.source_id)];
    const send = (source: string, id: number, content: string) =>
      requestFrom(address, `${conversationUrl(inbox.identifier, source, id)}/messages`, { body: { content } });
    for (let index = 0; index < 30; index++) {
      expect((await send(contact.source_id, index % 2 ? first : second, `message ${index}`)).status).toBe(200);
    }
    const customerMessages = async () =>
      [...(await storedMessages(first)), ...(await storedMessages(second))]
        .filter((row) => row.author === 'customer')
        .map((row) => row.text);

    for (const id of [first, second]) {
      expectLimited(await send(contact.source_id, id, 'one too many'));
    }
    expect(await customerMessages()).toHaveLength(30);
    expect(await customerMessages()).not.toContain('one too many');

    const other = await contactFrom(address, inbox.identifier);
    expect((await send(other.source_id, await open(other.source_id), 'my first message')).status).toBe(200);

    nextMinute();
    expect((await send(contact.source_id, first, 'a new minute')).status).toBe(200);
    expect(await customerMessages()).toHaveLength(31);
  });

  it(`lets one contact start at most ${CLIENT_API_LIMITS.conversationsPerContact} conversations a minute: the next is 429 and opens nothing, another contact goes on`, async () => {
    expect(CLIENT_API_LIMITS.conversationsPerContact).toBe(10);
    const inbox = await newInbox({ name: 'Many threads' });
    const address = newClientAddress();
    const contact = await contactFrom(address, inbox.identifier);
    const open = (source: string) =>
      requestFrom(address, `${contactUrl(inbox.identifier, source)}/conversations`, { body: {} });
    for (let index = 0; index < 10; index++) expect((await open(contact.source_id)).status).toBe(200);
    expectLimited(await open(contact.source_id));
    const listed = await requestFrom(address, `${contactUrl(inbox.identifier, contact.source_id)}/conversations`);
    expect(listed.body).toHaveLength(10);
    const other = await contactFrom(address, inbox.identifier);
    expect((await open(other.source_id)).status).toBe(200);
    nextMinute();
    expect((await open(contact.source_id)).status).toBe(200);
  });

  it('holds custom attributes to 16 KB: on one request, and on what a contact keeps after PATCHes are merged, changing nothing when refused', async () => {
    const inbox = await newInbox({ name: 'Big attributes' });
    const address = newClientAddress();
    const tooBig = { notes: 'x'.repeat(16 * 1024) };
    const refusedCreate = await requestFrom(address, `${base(inbox.identifier)}/contacts`, {
      body: { name: 'Heavy', custom_attributes: tooBig },
    });
    expect(refusedCreate.status).toBeGreaterThanOrEqual(400);
    expect(refusedCreate.status).toBeLessThan(500);
    expect(JSON.stringify(refusedCreate.body)).toMatch(/16 KB/);
    expect(await contactCount(inbox.id)).toBe(0);

    const contact = await contactFrom(address, inbox.identifier, {
      custom_attributes: { first: 'a'.repeat(9 * 1024) },
    });
    const refusedPatch = await requestFrom(address, contactUrl(inbox.identifier, contact.source_id), {
      method: 'PATCH',
      body: { custom_attributes: { second: 'b'.repeat(9 * 1024) } },
    });
    expectDeskError(refusedPatch, 422, 'unprocessable');
    const kept = await api.stack.bffSql.query<{ custom_attributes: Record<string, unknown> }>(
      'SELECT custom_attributes FROM contacts WHERE source_id_hash = $1',
      [openSecretBox(undefined, 'memory://').lookupHash(contact.source_id)],
    );
    expect(Object.keys(kept[0]!.custom_attributes)).toEqual(['first']);
    // Replacing the one key stays within the limit.
    expect(
      (
        await requestFrom(address, contactUrl(inbox.identifier, contact.source_id), {
          method: 'PATCH',
          body: { custom_attributes: { first: 'c' } },
        })
      ).status,
    ).toBe(200);

    const refusedConversation = await requestFrom(
      address,
      `${contactUrl(inbox.identifier, contact.source_id)}/conversations`,
      { body: { custom_attributes: tooBig } },
    );
    expect(refusedConversation.status).toBeGreaterThanOrEqual(400);
    expect(refusedConversation.status).toBeLessThan(500);
  });

  it('says so in the OpenAPI document: every Client API route may answer 429, the conversations take page and the messages before', async () => {
    type Operation = {
      parameters?: { name: string; in: string; required: boolean }[];
      responses: Record<string, unknown>;
    };
    const document = (await requestFrom(newClientAddress(), `${api.stack.url}/openapi.json`)).body as {
      paths: Record<string, Record<string, Operation>>;
    };
    const clientApi = Object.entries(document.paths).filter(([path]) => path.startsWith('/public/api/v1/'));
    expect(clientApi.length).toBeGreaterThanOrEqual(10);
    for (const [path, operations] of clientApi) {
      for (const [method, operation] of Object.entries(operations))
        expect(Object.keys(operation.responses), `${method} ${path}`).toContain('429');
    }
    const conversations = '/public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations';
    expect(document.paths[conversations]!['get']!.parameters).toContainEqual(
      expect.objectContaining({ name: 'page', in: 'query', required: false }),
    );
    expect(document.paths[`${conversations}/{conversation_id}/messages`]!['get']!.parameters).toContainEqual(
      expect.objectContaining({ name: 'before', in: 'query', required: false }),
    );
  });

  it('refuses a message body over the 640 KB cap with 413 payload_too_large before reading it, storing nothing', async () => {
    const address = newClientAddress();
    const contact = await contactFrom(address, api.stack.inboxIdentifier);
    const conversation = (
      await requestFrom(address, `${contactUrl(api.stack.inboxIdentifier, contact.source_id)}/conversations`, {
        body: {},
      })
    ).body.id as number;
    const url = `${conversationUrl(api.stack.inboxIdentifier, contact.source_id, conversation)}/messages`;
    const refused = await requestFrom(address, url, { rawBody: JSON.stringify({ content: 'a'.repeat(640 * 1024) }) });
    expectDeskError(refused, 413, 'payload_too_large');
    expect(await storedMessages(conversation)).toEqual([]);
  });
});
