import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetMessage } from '../../shared/index.ts';
import { desk, PLATFORM_TOKEN } from '../../test/helpdesk-client.ts';
import { request, startStack, type TestStack } from '../../test/stack.ts';
import { newVisitor, openWidgetConversation, sendWidgetMessage } from '../../test/widget-client.ts';
import { DeskConversationList, DeskMessage, User } from '../../shared/schemas/helpdesk/index.ts';

/**
 * What the AI did that only the people should read: the action it asked the site to run (with the
 * inputs, masked by the engine) and why it handed over. Lines for the team, never for the customer.
 */
describe("the AI's actions and handover reasons, for the people only", () => {
  let stack: TestStack;
  let admin: User;

  beforeAll(async () => {
    // The demo's own stack: its shop has the lookup_order action with a sandbox fixture.
    stack = await startStack(undefined, { DEMO_PLATFORM_TOKEN: PLATFORM_TOKEN }, { feedPollMs: 0 });
    admin = User.parse(
      (
        await desk(`${stack.url}/platform/api/v1/users`, PLATFORM_TOKEN, {
          body: { name: 'Ada', email: 'ada@lines.example' },
        })
      ).body,
    );
    await desk(`${stack.url}/platform/api/v1/accounts/${stack.accountId}/account_users`, PLATFORM_TOKEN, {
      body: { user_id: admin.id, role: 'administrator' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('shows them in the transcript for people, marked private, and never in the widget', async () => {
    const { token } = await newVisitor(stack.url);
    const { id: uuid } = await openWidgetConversation(stack.url, token);
    await sendWidgetMessage(stack.url, token, uuid, 'Where is my order 12345?', 'a');
    await sendWidgetMessage(stack.url, token, uuid, 'I want to talk to a person', 'b');
    await stack.bff.relay.settled();
    const listed = DeskConversationList.parse(
      (await desk(`${stack.url}/api/v1/accounts/${stack.accountId}/conversations?status=all`, admin.access_token)).body,
    ).data.payload;
    const id = listed.find((conversation) => conversation.uuid === uuid)!.id;
    const messages = (
      (await desk(`${stack.url}/api/v1/accounts/${stack.accountId}/conversations/${id}/messages`, admin.access_token))
        .body.payload as unknown[]
    ).map((message) => DeskMessage.parse(message));
    const forTeam = messages
      .filter((message) => message.private && message.message_type === 2)
      .map((message) => message.content);
    expect(forTeam).toEqual([
      'The AI asked the site to run lookup_order (order_number: 12345); the sandbox ran it with its fixture.',
      'Handed over by the AI: customer request',
    ]);
    const widget = (
      (await request(`${stack.url}/v1/widget/conversations/${uuid}/messages`, { token })).body
        .messages as WidgetMessage[]
    ).map((message) => message.text);
    expect(widget.some((text) => text.includes('lookup_order') || text.startsWith('Handed over'))).toBe(false);
    expect(widget).toContain("You're being connected with a person from our team. They will answer here.");
  });
});
