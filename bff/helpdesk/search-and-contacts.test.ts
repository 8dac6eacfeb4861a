import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeskStack, type DeskStack } from '../../test/desk-conversations-fixture.ts';
import { DRIVERS } from '../../test/stack.ts';
import {
  ContactConversations,
  ConversationSearchResults,
  DeskContact,
  DeskContactList,
  DeskConversation,
} from '../../shared/schemas/helpdesk/index.ts';

/**
 * Issue 31: Chatwoot's conversations/search and contacts/search (the customer's words in any
 * language, a name, an e-mail address, a conversation's number; only the inboxes the caller may
 * see; the highlight never carries the customer's markup), and a contact changed from the console.
 */
describe.each(DRIVERS)('search and contacts on $name', (driver) => {
  let desk: DeskStack;

  beforeAll(async () => {
    desk = await startDeskStack(driver);
  });
  afterAll(async () => {
    await desk?.stop();
  });

  const search = async (q: string, token = desk.agent.access_token) => {
    const response = await desk.app(`/conversations/search?q=${encodeURIComponent(q)}`, token);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return ConversationSearchResults.parse(response.body).data;
  };

  it("finds a conversation by the customer's words in any language, escaping their markup in the highlight", async () => {
    const german = await desk.customerAsks('Wo ist meine Bestellung <img src=x onerror=alert(1)>?');
    const found = await search('bestellung');
    const hit = found.payload.find((row) => row.id === german.id)!;
    expect(hit.highlight.field).toBe('message');
    expect(hit.highlight.html).toContain('<mark>Bestellung</mark>');
    expect(hit.highlight.html).toContain('&lt;img');
    expect(hit.highlight.html).not.toContain('<img');
    // Part of a word, and the number of the conversation.
    expect((await search('Bestell')).payload.map((row) => row.id)).toContain(german.id);
    const byNumber = await search(`#${german.id}`);
    expect(byNumber.payload[0]).toMatchObject({ id: german.id, highlight: { field: 'id' } });
    expect((await search('zzzz-nothing-like-it')).payload).toEqual([]);
  });

  it('searches only the inboxes the caller answers, and refuses a stranger or an empty query', async () => {
    const { id } = await desk.customerAsks('My umbrella broke');
    expect((await search('umbrella')).payload.map((row) => row.id)).toContain(id);
    expect((await search('umbrella', desk.otherAgent.access_token)).payload).toEqual([]);
    expect((await desk.app('/conversations/search?q=umbrella', 'not-a-token')).status).toBe(401);
    expect((await desk.app('/conversations/search?q=', desk.agent.access_token)).status).toBe(422);
    expect((await desk.app('/conversations/search', desk.agent.access_token)).status).toBe(422);
    expect((await desk.app('/contacts/search?q=', desk.agent.access_token)).status).toBe(422);
  });

  it("changes a customer's contact from the console: the list, the search and the contact's conversations show it", async () => {
    const customer = await desk.customerAsks('Can I pay by invoice?');
    const opened = DeskConversation.parse(
      (await desk.app(`/conversations/${customer.id}`, desk.agent.access_token)).body,
    );
    expect(opened.contact.id).not.toBeNull();
    const path = `/contacts/${opened.contact.id}`;
    const changed = await desk.app(path, desk.agent.access_token, {
      method: 'PATCH',
      body: {
        name: 'Ana Lima',
        email: 'ana@lima.example',
        phone_number: '+4930123456',
        custom_attributes: { plan: 'gold' },
      },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(DeskContact.parse(changed.body)).toMatchObject({
      name: 'Ana Lima',
      email: 'ana@lima.example',
      phone_number: '+4930123456',
      custom_attributes: { plan: 'gold' },
    });
    const row = (await desk.list(desk.agent.access_token, '?status=all')).payload.find((r) => r.id === customer.id)!;
    expect(row).toMatchObject({ display_name: 'Ana Lima', contact: { email: 'ana@lima.example' } });
    expect((await search('lima')).payload.find((r) => r.id === customer.id)?.highlight).toEqual({
      field: 'contact_name',
      html: 'Ana <mark>Lima</mark>',
    });
    const contacts = DeskContactList.parse(
      (await desk.app('/contacts/search?q=ana@lima', desk.agent.access_token)).body,
    );
    expect(contacts.payload.map((contact) => contact.id)).toEqual([opened.contact.id]);
    const theirs = ContactConversations.parse((await desk.app(`${path}/conversations`, desk.agent.access_token)).body);
    expect(theirs.payload.map((conversation) => conversation.id)).toEqual([customer.id]);
  });

  it('refuses a bad contact change with 422 and changes nothing; an agent outside the inbox gets 404', async () => {
    const customer = await desk.customerAsks('Hello there');
    const { contact } = DeskConversation.parse(
      (await desk.app(`/conversations/${customer.id}`, desk.admin.access_token)).body,
    );
    const path = `/contacts/${contact.id}`;
    for (const body of [
      { phone_number: '030 123' },
      { email: 'not-an-address' },
      { name: '' },
      { custom_attributes: 'gold' },
      { colour: 'red' },
    ]) {
      const refused = await desk.app(path, desk.agent.access_token, { method: 'PATCH', body });
      expect(refused.status, JSON.stringify(body)).toBe(422);
    }
    expect(DeskContact.parse((await desk.app(path, desk.agent.access_token)).body)).toMatchObject({
      email: null,
      phone_number: null,
      custom_attributes: {},
    });
    expect((await desk.app(path, desk.otherAgent.access_token, { method: 'PATCH', body: { name: 'X' } })).status).toBe(
      404,
    );
    expect((await desk.app(`${path}/conversations`, desk.otherAgent.access_token)).status).toBe(404);
    expect((await desk.app(path, 'not-a-token')).status).toBe(401);
  });
});
