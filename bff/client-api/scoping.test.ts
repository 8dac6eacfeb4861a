import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { DRIVERS } from '../../test/stack.ts';
import { request, expectDeskError, useClientApi } from '../../test/client-api-fixture.ts';

/** The helpdesk Client API over HTTP (scoping, CORS and the OpenAPI document); see test/client-api-fixture.ts for what they share. */
describe.each(DRIVERS)('helpdesk Client API: scoping, CORS and the OpenAPI document, on $name', (driver) => {
  const api = useClientApi(driver);
  const {
    base,
    contactUrl,
    conversationUrl,
    newInbox,
    createContact,
    openConversation,
    listMessages,
    ask,
    contactCount,
    storedMessages,
    conversationRow,
  } = api;

  describe('scoping: every lookup belongs to the inbox and the contact', () => {
    /** Every route of one conversation, as a contact of `inbox` with `source` would call it. */
    const conversationRoutes = (
      inbox: string,
      source: string,
      id: number,
      messageId: number,
    ): [string, string, { method?: string; body?: unknown }][] => [
      ['GET conversation', conversationUrl(inbox, source, id), {}],
      ['POST toggle_status', `${conversationUrl(inbox, source, id)}/toggle_status`, { method: 'POST' }],
      [
        'POST toggle_typing',
        `${conversationUrl(inbox, source, id)}/toggle_typing?typing_status=on`,
        { method: 'POST' },
      ],
      ['POST update_last_seen', `${conversationUrl(inbox, source, id)}/update_last_seen`, { method: 'POST' }],
      [
        'POST messages',
        `${conversationUrl(inbox, source, id)}/messages`,
        { body: { content: 'I am not who you think' } },
      ],
      ['GET messages', `${conversationUrl(inbox, source, id)}/messages`, {}],
      [
        'PATCH message',
        `${conversationUrl(inbox, source, id)}/messages/${messageId}`,
        { method: 'PATCH', body: { submitted_values: [{ value: 'stolen' }] } },
      ],
    ];

    async function victimConversation(inbox = api.stack.inboxIdentifier) {
      const owner = await createContact({}, inbox);
      const conversation = await openConversation(owner.source_id, inbox);
      const list = await ask(inbox, owner.source_id, conversation.id, 'How do I return an item?');
      const answer = list.find((message) => message.message_type === 1)!;
      const state = async () => ({
        row: await conversationRow(conversation.id),
        messages: await storedMessages(conversation.id),
        listed: await listMessages(inbox, owner.source_id, conversation.id),
      });
      return { owner, conversation, answer, state };
    }

    it('refuses another contact of the same inbox every route of a conversation that is not theirs with 404, and nothing changes', async () => {
      const { conversation, answer, state } = await victimConversation();
      const before = await state();
      const stranger = await createContact();
      for (const [what, url, options] of conversationRoutes(
        api.stack.inboxIdentifier,
        stranger.source_id,
        conversation.id,
        answer.id,
      )) {
        const response = await request(url, options);
        expect(response.status, what).toBe(404);
        expectDeskError(response, 404, 'not_found');
      }
      expect(
        (await request(`${contactUrl(api.stack.inboxIdentifier, stranger.source_id)}/conversations`)).body,
      ).toEqual([]);
      await api.stack.bff.relay.settled();
      expect(await state()).toEqual(before);
    });

    it('refuses a contact of another inbox, even one with the same source_id, every route of the conversation with 404, and nothing changes', async () => {
      const shared = `shared-source-${Date.now()}`;
      const owner = await createContact({ source_id: shared });
      const conversation = await openConversation(shared);
      const list = await ask(api.stack.inboxIdentifier, shared, conversation.id, 'Do you ship abroad?');
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
      await api.stack.bff.relay.settled();
      expect({ row: await conversationRow(conversation.id), messages: await storedMessages(conversation.id) }).toEqual(
        before,
      );
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
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'PATCH',
          'access-control-request-headers': 'content-type',
        },
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
      paths: Record<
        string,
        Record<
          string,
          {
            responses: Record<
              string,
              { content?: Record<string, { schema?: { $ref?: string; properties?: Record<string, unknown> } }> }
            >;
          }
        >
      >;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    }
    const documentOf = async (): Promise<Document> => {
      const response = await request(`${api.stack.url}/openapi.json`);
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
          expect(Object.keys(schema?.properties ?? {}), `${route} ${status}`).toEqual(
            expect.arrayContaining(['description', 'errors']),
          );
        }
      }
    });

    it('names the helpdesk records as components ($ref) and lists 401 on every Client API route, GET {base} too (issue 33)', async () => {
      const response = await request(`${api.stack.url}/helpdesk/openapi.json`);
      const document = response.body as Document;
      expect(Object.keys(document.components.schemas)).toEqual(
        expect.arrayContaining(['Account', 'Inbox', 'Conversation', 'Message', 'User', 'AgentBot', 'PublicContact']),
      );
      const schemaOf = (path: string, method: string) =>
        document.paths[path]![method]!.responses['200']!.content!['application/json']!.schema;
      expect(schemaOf('/api/v1/accounts/{account_id}', 'get')).toEqual({ $ref: '#/components/schemas/Account' });
      expect(schemaOf('/api/v1/accounts/{account_id}/inboxes/{inbox_id}', 'get')).toEqual({
        $ref: '#/components/schemas/Inbox',
      });
      expect(Object.keys(document.paths['/api/v1/accounts/{account_id}']!['get']!.responses)).toEqual(
        expect.arrayContaining(['401', '404']),
      );
      for (const route of CLIENT_API.filter((route) => !route.includes('csat_survey'))) {
        const [method, path] = route.split(' ') as [string, string];
        expect(Object.keys(document.paths[path]![method]!.responses), route).toContain('401');
      }
    });
  });
});
