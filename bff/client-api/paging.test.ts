import { afterEach, describe, expect, it } from 'vitest';
import { DRIVERS } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import { CLIENT_API_PAGES } from './limits.ts';
import {
  expectConversation,
  expectDeskError,
  request,
  useClientApi,
  type Conversation,
  type Message,
} from '../../test/client-api-fixture.ts';

/**
 * Issue 12, finding 2: every list of the Client API is paged. A contact's conversations come 25 a
 * page (`page`, the newest page first, each page oldest first: a Chatwoot client that reads only
 * the plain array sees the latest ones); a conversation carries its newest 100 messages, and
 * `GET …/messages` gives 20 at a time with `before=<id>` for older ones, as Chatwoot's MessageFinder.
 */
describe.each(DRIVERS)('helpdesk Client API: paged lists, on $name', (driver) => {
  const api = useClientApi(driver);
  const { contactUrl, conversationUrl, createContact, openConversation, send, listMessages, resolve } = api;
  afterEach(() => {
    api.clock.frozenAt = undefined;
  });

  it('pages a contact’s conversations 25 at a time: page 1 the newest 25, page 2 the 5 before, oldest first in each', async () => {
    expect(CLIENT_API_PAGES.conversations).toBe(25);
    const contact = await createContact();
    const opened: number[] = [];
    // A contact starts at most 10 conversations a minute: the BFF's clock moves a minute on after every 10.
    for (let index = 0; index < 30; index++) {
      if (index % 10 === 0) api.clock.frozenAt = Date.now() + (index / 10) * 60_000;
      opened.push((await openConversation(contact.source_id)).id);
    }
    const page = async (query: string) => {
      const response = await request(
        `${contactUrl(api.stack.inboxIdentifier, contact.source_id)}/conversations${query}`,
      );
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      (response.body as unknown[]).forEach((item, index) => expectConversation(item, `conversations[${index}]`));
      return (response.body as Conversation[]).map((item) => item.id);
    };
    const first = await page('');
    expect(first).toEqual(opened.slice(5));
    expect(await page('?page=1')).toEqual(first);
    expect(await page('?page=2')).toEqual(opened.slice(0, 5));
    expect(await page('?page=3')).toEqual([]);
    for (const query of ['?page=0', '?page=-1', '?page=two', '?page=1.5']) {
      expectDeskError(
        await request(`${contactUrl(api.stack.inboxIdentifier, contact.source_id)}/conversations${query}`),
        422,
        'unprocessable',
      );
    }
  });

  it('shows the newest 100 messages in a conversation (GET, the list, toggle_status), and older ones page by page with before=<id>', async () => {
    expect(CLIENT_API_PAGES.messagesInConversation).toBe(100);
    expect(CLIENT_API_PAGES.messages).toBe(20);
    api.clock.frozenAt = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
    const contact = await createContact();
    const conversation = await openConversation(contact.source_id);
    // 101 questions, 30 a minute (the contact's limit), each answered by the AI.
    for (let index = 0; index < 101; index++) {
      if (index > 0 && index % 30 === 0) api.clock.frozenAt += 60_000;
      expect(
        (
          await send(
            api.stack.inboxIdentifier,
            contact.source_id,
            conversation.id,
            `Question ${index}: do you ship abroad?`,
          )
        ).status,
      ).toBe(200);
    }
    await api.stack.bff.relay.settled();
    // Reading starts a minute of its own (the per-address limit counts the reads too).
    api.clock.frozenAt += 60_000;

    /** Every message the contact may see, oldest first, read back page by page. */
    async function everyMessage(): Promise<Message[]> {
      const all: Message[] = [];
      for (
        let page = await listMessages(api.stack.inboxIdentifier, contact.source_id, conversation.id);
        page.length > 0;
      ) {
        expect(page.length).toBeLessThanOrEqual(20);
        all.unshift(...page);
        page = await listMessages(api.stack.inboxIdentifier, contact.source_id, conversation.id, page[0]!.id);
      }
      return all;
    }
    let previous = -1;
    const all = await until(
      everyMessage,
      (list) => {
        const stable = list.length === previous && list.length >= 101;
        previous = list.length;
        return stable;
      },
      'the 101 questions and their answers',
    );
    const ids = all.map((message) => message.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);

    const newest = ids.slice(-100);
    const shown = (await request(conversationUrl(api.stack.inboxIdentifier, contact.source_id, conversation.id)))
      .body as Conversation;
    expect(shown.messages.map((message) => message.id)).toEqual(newest);
    const listed = (await request(`${contactUrl(api.stack.inboxIdentifier, contact.source_id)}/conversations`))
      .body as Conversation[];
    expect(listed.find((item) => item.id === conversation.id)!.messages.map((message) => message.id)).toEqual(newest);
    // The client reads on from the first message it was shown.
    const older = await listMessages(api.stack.inboxIdentifier, contact.source_id, conversation.id, newest[0]);
    expect(older.map((message) => message.id)).toEqual(ids.slice(-120, -100));

    const resolved = await resolve(api.stack.inboxIdentifier, contact.source_id, conversation.id);
    expect(resolved.status).toBe(200);
    expect(resolved.body.messages).toHaveLength(100);
    expect((resolved.body.messages as Message[]).at(-1)!.id).toBeGreaterThanOrEqual(newest.at(-1)!);
  });
});
