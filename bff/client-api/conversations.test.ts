import { describe, expect, it } from 'vitest';
import { DRIVERS } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { NOTICES } from '../engine-link/event-application.ts';
import {
  request,
  expectMessage,
  expectConversation,
  expectDeskError,
  useClientApi,
  type Conversation,
  type Message,
} from '../../test/client-api-fixture.ts';

/** The helpdesk Client API over HTTP (conversations and messages); see test/client-api-fixture.ts for what they share. */
describe.each(DRIVERS)('helpdesk Client API: conversations and messages, on $name', (driver) => {
  const api = useClientApi(driver);
  const {
    contactUrl,
    conversationUrl,
    newInbox,
    createContact,
    openConversation,
    send,
    listMessages,
    getConversation,
    resolve,
    ask,
    engineId,
    engine,
    storedMessages,
    conversationRow,
    surveyOf,
  } = api;

  describe('conversations', () => {
    it("POST opens an open conversation, keeps its custom_attributes, and answers with Chatwoot's public conversation", async () => {
      const contact = await createContact({ name: 'Opener', email: 'opener@example.com' });
      const response = await request(`${contactUrl(api.stack.inboxIdentifier, contact.source_id)}/conversations`, {
        body: { custom_attributes: { order: 'A-1001', priority: 2 } },
      });
      expect(response.status).toBe(200);
      expectConversation(response.body);
      expect(response.body).toMatchObject({
        status: 'open',
        contact_last_seen_at: 0,
        messages: [],
        contact: { id: contact.id, name: 'Opener', email: 'opener@example.com' },
      });
      const [inbox] = await api.stack.bffSql.query<{ display_id: number }>(
        'SELECT display_id::int AS display_id FROM inboxes WHERE id = $1',
        [api.demoInboxId],
      );
      expect(response.body.inbox_id).toBe(inbox!.display_id);
      expect((await conversationRow(response.body.id)).custom_attributes).toEqual({ order: 'A-1001', priority: 2 });
    });

    it('GET lists only this contact’s conversations in this inbox, oldest first, each a public conversation', async () => {
      const contact = await createContact();
      const other = await createContact();
      expect((await request(`${contactUrl(api.stack.inboxIdentifier, contact.source_id)}/conversations`)).body).toEqual(
        [],
      );
      const first = await openConversation(contact.source_id);
      const second = await openConversation(contact.source_id);
      await openConversation(other.source_id);
      const response = await request(`${contactUrl(api.stack.inboxIdentifier, contact.source_id)}/conversations`);
      expect(response.status).toBe(200);
      const list = response.body as Conversation[];
      list.forEach((item, index) => expectConversation(item, `conversations[${index}]`));
      expect(list.map((item) => item.id)).toEqual([first.id, second.id]);
    });

    it('GET of one conversation gives it with its messages; an unknown or malformed id is 404 not_found', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const sent = await send(api.stack.inboxIdentifier, contact.source_id, conversation.id, 'Where is my parcel?');
      expect(sent.status).toBe(200);
      const shown = await getConversation(api.stack.inboxIdentifier, contact.source_id, conversation.id);
      expectConversation(shown);
      expect(shown).toMatchObject({ id: conversation.id, uuid: conversation.uuid });
      expect(shown.messages[0]).toMatchObject({ id: sent.body.id, content: 'Where is my parcel?', message_type: 0 });
      for (const id of ['999999999', 'abc', '0', '-1', '12345678901234567890']) {
        expectDeskError(
          await request(conversationUrl(api.stack.inboxIdentifier, contact.source_id, id)),
          404,
          'not_found',
        );
      }
    });

    it('keeps one open conversation per contact on an inbox locked to a single conversation, and starts a new one once it is resolved', async () => {
      const inbox = await newInbox({ name: 'Single thread' }, { lockToSingleConversation: true });
      const contact = await createContact({}, inbox.identifier);
      const first = await openConversation(contact.source_id, inbox.identifier);
      const again = await openConversation(contact.source_id, inbox.identifier, {
        custom_attributes: { second: true },
      });
      expect(again.id).toBe(first.id);
      expect(again.uuid).toBe(first.uuid);
      const listed = await request(`${contactUrl(inbox.identifier, contact.source_id)}/conversations`);
      expect((listed.body as Conversation[]).map((item) => item.id)).toEqual([first.id]);

      // Once that conversation is resolved it takes no messages, so the next create starts a new one that does.
      expect((await resolve(inbox.identifier, contact.source_id, first.id)).status).toBe(200);
      const next = await openConversation(contact.source_id, inbox.identifier);
      expect(next.id).not.toBe(first.id);
      expect(next.status).not.toBe('resolved');
      expect((await send(inbox.identifier, contact.source_id, next.id, 'Where is my parcel?')).status).toBe(200);
      expect((await openConversation(contact.source_id, inbox.identifier)).id).toBe(next.id);

      // Without the lock (the demo inbox), a second create is a second conversation.
      const free = await createContact();
      const one = await openConversation(free.source_id);
      expect((await openConversation(free.source_id)).id).not.toBe(one.id);
    });

    it('POST toggle_status resolves, adds the input_csat survey message when the inbox has CSAT on, and a second resolve changes nothing', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      await ask(api.stack.inboxIdentifier, contact.source_id, conversation.id, 'How do I return an item?');
      const response = await resolve(api.stack.inboxIdentifier, contact.source_id, conversation.id);
      expect(response.status).toBe(200);
      expectConversation(response.body);
      expect(response.body.status).toBe('resolved');
      const surveys = (response.body.messages as Message[]).filter((message) => message.content_type === 'input_csat');
      expect(surveys).toHaveLength(1);
      expect(surveys[0]).toMatchObject({
        message_type: 3,
        content_type: 'input_csat',
        conversation_id: conversation.id,
      });
      expectMessage(surveys[0]);

      const again = await resolve(api.stack.inboxIdentifier, contact.source_id, conversation.id);
      expect(again.status).toBe(200);
      expect(again.body.status).toBe('resolved');
      expect(again.body.messages).toEqual(response.body.messages);
      expect((await storedMessages(conversation.id)).filter((row) => row.content_type === 'input_csat')).toHaveLength(
        1,
      );
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
      const url = `${conversationUrl(api.stack.inboxIdentifier, contact.source_id, conversation.id)}/toggle_typing`;
      for (const status of ['on', 'off']) {
        const byQuery = await request(`${url}?typing_status=${status}`, { method: 'POST' });
        expect(byQuery.status).toBe(200);
        expect(byQuery.body).toBe('');
        const byBody = await request(url, { body: { typing_status: status } });
        expect(byBody.status).toBe(200);
        expect(byBody.body).toBe('');
      }
      expectDeskError(await request(url, { method: 'POST' }), 422, 'unprocessable');
      expectDeskError(await request(`${url}?typing_status=maybe`, { method: 'POST' }), 422, 'unprocessable');
      expectDeskError(await request(url, { body: { typing_status: true } }), 422, 'unprocessable');
      expectDeskError(
        await request(
          `${conversationUrl(api.stack.inboxIdentifier, contact.source_id, 999999999)}/toggle_typing?typing_status=on`,
          { method: 'POST' },
        ),
        404,
        'not_found',
      );
    });

    it('POST update_last_seen answers 200 with an empty body, sets contact_last_seen_at and marks the earlier answers read', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const list = await ask(api.stack.inboxIdentifier, contact.source_id, conversation.id, 'Do you ship abroad?');
      const answer = list.filter((message) => message.message_type === 1).at(-1)!;
      expect((await conversationRow(conversation.id)).customer_last_read_id).toBeLessThan(answer.id);

      const startedAt = Math.floor(Date.now() / 1000);
      const response = await request(
        `${conversationUrl(api.stack.inboxIdentifier, contact.source_id, conversation.id)}/update_last_seen`,
        { method: 'POST' },
      );
      expect(response.status).toBe(200);
      expect(response.body).toBe('');
      expect((await conversationRow(conversation.id)).customer_last_read_id).toBeGreaterThanOrEqual(answer.id);
      const shown = await getConversation(api.stack.inboxIdentifier, contact.source_id, conversation.id);
      expect(shown.contact_last_seen_at).toBeGreaterThanOrEqual(startedAt - 1);
      expect(shown.contact_last_seen_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
    });
  });

  describe('messages', () => {
    it("POST stores the contact's message as incoming and answers with Chatwoot's public message, echo_id only over the socket", async () => {
      const contact = await createContact({ name: 'Sender', email: 'sender@example.com' });
      const conversation = await openConversation(contact.source_id);
      const startedAt = Math.floor(Date.now() / 1000);
      const response = await send(
        api.stack.inboxIdentifier,
        contact.source_id,
        conversation.id,
        'Is my order on its way?',
        'echo-http-1',
      );
      expect(response.status).toBe(200);
      expectMessage(response.body);
      expect(response.body).toMatchObject({
        content: 'Is my order on its way?',
        message_type: 0,
        content_type: 'text',
        content_attributes: {},
        conversation_id: conversation.id,
      });
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
      const list = await ask(api.stack.inboxIdentifier, contact.source_id, conversation.id, 'How do I return an item?');
      list.forEach((message, index) => expectMessage(message, `messages[${index}]`));
      const [question, answer] = list;
      expect(question).toMatchObject({
        message_type: 0,
        content: 'How do I return an item?',
        sender: { type: 'contact' },
      });
      // The answer asks "Did that help?" with yes and no: a choice message (input_select), as Chatwoot's bots send them.
      expect(answer).toMatchObject({
        message_type: 1,
        content_type: 'input_select',
        conversation_id: conversation.id,
        sender: { type: 'agent_bot' },
      });
      expect(answer!.content).toContain('within 30 days');
      expect(answer!.content_attributes['items']).toEqual([
        { title: 'Yes', value: 'Yes, that helped.' },
        { title: 'No', value: "No, that didn't help." },
      ]);
    });

    it('GET gives the latest 20 messages oldest first, and before=<id> the 20 before that', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      for (let index = 1; index <= 11; index++) {
        expect(
          (
            await send(
              api.stack.inboxIdentifier,
              contact.source_id,
              conversation.id,
              `Question number ${index}: do you ship abroad?`,
            )
          ).status,
        ).toBe(200);
      }
      await api.stack.bff.relay.settled();
      const all = await until(
        async () => (await getConversation(api.stack.inboxIdentifier, contact.source_id, conversation.id)).messages,
        (messages) => messages.length >= 22,
        'eleven questions and their answers',
      );
      const ids = all.map((message) => message.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));

      const latest = await listMessages(api.stack.inboxIdentifier, contact.source_id, conversation.id);
      expect(latest.map((message) => message.id)).toEqual(ids.slice(-20));
      latest.forEach((message, index) => expectMessage(message, `messages[${index}]`));
      const older = await listMessages(api.stack.inboxIdentifier, contact.source_id, conversation.id, latest[0]!.id);
      expect(older.map((message) => message.id)).toEqual(ids.slice(0, -20).slice(-20));
      expect(await listMessages(api.stack.inboxIdentifier, contact.source_id, conversation.id, ids[0])).toEqual([]);
      expectDeskError(
        await request(
          `${conversationUrl(api.stack.inboxIdentifier, contact.source_id, conversation.id)}/messages?before=abc`,
        ),
        422,
        'unprocessable',
      );
    });

    it("keeps a handover notice out of the messages (an activity message), and shows a person's answer as outgoing from a user", async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      await ask(api.stack.inboxIdentifier, contact.source_id, conversation.id, 'Where is my parcel?');
      expect((await engine(await engineId(conversation.uuid), 'handover', { reason: 'customer asked' })).status).toBe(
        200,
      );
      await api.stack.bff.feed.catchUp();
      expect(
        (await storedMessages(conversation.id)).some((row) => row.author === 'system' && row.text === NOTICES.handover),
      ).toBe(true);
      expect(
        (
          await engine(await engineId(conversation.uuid), 'human-messages', {
            text: 'Hi, Dana here. Let me check.',
            author_name: 'Dana',
          })
        ).status,
      ).toBe(200);
      await api.stack.bff.feed.catchUp();

      const listed = await listMessages(api.stack.inboxIdentifier, contact.source_id, conversation.id);
      const shown = await getConversation(api.stack.inboxIdentifier, contact.source_id, conversation.id);
      for (const messages of [listed, shown.messages]) {
        expect(messages.map((message) => message.content)).not.toContain(NOTICES.handover);
        expect(messages.every((message) => message.message_type !== 2)).toBe(true);
        expect(messages.at(-1)).toMatchObject({
          content: 'Hi, Dana here. Let me check.',
          message_type: 1,
          sender: { type: 'user', name: 'Dana' },
        });
      }
    });

    it('takes 150,000 characters, and refuses 150,001 with 422 unprocessable on content, storing nothing', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const refused = await send(api.stack.inboxIdentifier, contact.source_id, conversation.id, 'a'.repeat(150_001));
      expectDeskError(refused, 422, 'unprocessable');
      expect(refused.body.errors[0].field).toBe('content');
      expect(await storedMessages(conversation.id)).toEqual([]);

      const taken = await send(api.stack.inboxIdentifier, contact.source_id, conversation.id, 'é'.repeat(150_000));
      expect(taken.status).toBe(200);
      expect((taken.body.content as string).length).toBe(150_000);
    });

    it('refuses an empty message or an unknown field with 422, and a malformed echo_id, storing nothing', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const url = `${conversationUrl(api.stack.inboxIdentifier, contact.source_id, conversation.id)}/messages`;
      for (const body of [
        {},
        { content: '' },
        { content: '   ' },
        { content: 'hi', private: true },
        { content: 'hi', echo_id: 'has spaces in it' },
      ]) {
        expectDeskError(await request(url, { body }), 422, 'unprocessable');
      }
      expect(await storedMessages(conversation.id)).toEqual([]);
    });

    it('refuses a message to a resolved conversation with 409 invalid_state and stores nothing', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      expect((await resolve(api.stack.inboxIdentifier, contact.source_id, conversation.id)).status).toBe(200);
      const before = await storedMessages(conversation.id);
      expectDeskError(
        await send(api.stack.inboxIdentifier, contact.source_id, conversation.id, 'One more thing'),
        409,
        'invalid_state',
      );
      expect(await storedMessages(conversation.id)).toEqual(before);
    });
  });
});
