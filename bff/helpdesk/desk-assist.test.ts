import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeskStack, type DeskStack } from '../../test/desk-conversations-fixture.ts';
import { AssistResponse } from '../../shared/schemas/assist.ts';
import { DeskMessage } from '../../shared/schemas/helpdesk/index.ts';

/**
 * Issue 29, assist in the Application API: people who may see a conversation get the engine's
 * suggested reply, summary and customer language for it; others get what any conversation route
 * gives them; nothing is stored or sent. A real engine and BFF over HTTP.
 */
describe('assist for people through the Application API', () => {
  let desk: DeskStack;

  beforeAll(async () => {
    desk = await startDeskStack();
  });
  afterAll(async () => {
    await desk?.stop();
  });

  const assist = (id: number, token: string | undefined, body: unknown = {}) =>
    desk.app(`/conversations/${id}/assist`, token, { method: 'POST', body });

  it('gives the people of the inbox a suggestion from the knowledge base, a summary and the language, and sends nothing', async () => {
    const customer = await desk.customerAsks('How do I return an item?');
    await customer.writes('I want to talk to a person');
    const messagesBefore = (await desk.app(`/conversations/${customer.id}/messages`, desk.admin.access_token)).body;

    for (const person of [desk.admin, desk.agent]) {
      const response = await assist(customer.id, person.access_token);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const body = AssistResponse.parse(response.body);
      expect(body.suggestion?.text).toContain('within 30 days of delivery');
      expect(body.suggestion?.sources).toEqual([{ title: 'Returns and refunds › How do I return an item?' }]);
      expect(body.summary).toContain('How do I return an item?');
      expect(body.summary).toContain('the customer asked for a person');
      expect(body.customer_language).toBe('en');
    }
    const messagesAfter = (await desk.app(`/conversations/${customer.id}/messages`, desk.admin.access_token)).body;
    expect(messagesAfter).toEqual(messagesBefore);
    expect((await customer.widgetMessages()).map((message) => message.author)).not.toContain('human');
    expect((messagesAfter.payload as DeskMessage[]).some((message) => message.sender?.type === 'user')).toBe(false);
  });

  it('refuses an agent of another inbox (404), a stranger (401), a bad body (422) and a draft the engine has no model for (422)', async () => {
    const { id } = await desk.customerAsks('Do you ship abroad?');
    const hidden = await assist(id, desk.otherAgent.access_token);
    expect(hidden.status).toBe(404);
    expect((await assist(id, 'not-a-token')).status).toBe(401);
    expect((await assist(id, undefined)).status).toBe(401);

    const bad = await assist(id, desk.admin.access_token, { draft: 42 });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('draft');
    const unknown = await assist(id, desk.admin.access_token, { question: 'why?' });
    expect(unknown.status).toBe(422);

    const draft = await assist(id, desk.admin.access_token, { draft: 'we ship to the EU' });
    expect(draft.status).toBe(422);
    expect(JSON.stringify(draft.body)).toContain('LLM');
    expect((await assist(999_999, desk.admin.access_token)).status).toBe(404);
  });

  it('says the engine cannot be reached (503) while it is down', async () => {
    const { id } = await desk.customerAsks('How long does delivery take?');
    await desk.engine.pause();
    try {
      expect((await assist(id, desk.admin.access_token)).status).toBe(503);
    } finally {
      await desk.engine.resume();
    }
    expect((await assist(id, desk.admin.access_token)).status).toBe(200);
  });
});
