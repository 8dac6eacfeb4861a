import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { request, startStack, type TestStack } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import {
  CsatSurvey,
  PublicContact,
  PublicContactRecord,
  PublicConversation,
  PublicInbox,
  PublicMessage,
} from './schemas.ts';

/**
 * Every answer of the Client API is what its schema (the same zod declaration that writes the
 * OpenAPI document) says: nothing missing, nothing of another type, and no field the document
 * does not name.
 */
describe('the Client API answers with its documented shapes', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
    // Surveys on, so that a resolve asks for a rating and the survey routes answer.
    await stack.bffSql.query('UPDATE inboxes SET survey_enabled = true WHERE identifier = $1', [stack.inboxIdentifier]);
  });
  afterAll(() => stack?.stop());

  const base = () => `${stack.url}/public/api/v1/inboxes/${stack.inboxIdentifier}`;
  const documented = <S extends z.ZodType>(schema: S, body: unknown) => {
    const parsed = schema.safeParse(body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    // Parsing drops fields the schema does not name: the answer had none.
    expect(parsed.data).toEqual(body);
    return parsed.data as z.output<S>;
  };

  it('for the inbox, a contact, conversations, messages and the survey', async () => {
    documented(PublicInbox, (await request(base())).body);
    const contact = documented(
      PublicContact,
      (await request(`${base()}/contacts`, { body: { name: 'Ada', email: 'ada@example.com' } })).body,
    );
    const contactBase = `${base()}/contacts/${contact.source_id}`;
    documented(PublicContact, (await request(contactBase)).body);
    documented(
      PublicContactRecord,
      (await request(contactBase, { method: 'PATCH', body: { phone_number: '+44 20 7946 0000' } })).body,
    );

    const conversation = documented(
      PublicConversation,
      (await request(`${contactBase}/conversations`, { body: {} })).body,
    );
    const conversationBase = `${contactBase}/conversations/${conversation.id}`;
    documented(
      PublicMessage,
      (
        await request(`${conversationBase}/messages`, {
          body: { content: 'How do I return an item?', echo_id: 'contract-1' },
        })
      ).body,
    );
    await stack.bff.relay.settled();
    const messages = await until(
      () => request(`${conversationBase}/messages`),
      (response) => response.body.length >= 2,
      'the answer',
    );
    for (const message of messages.body as unknown[]) documented(PublicMessage, message);
    expect(
      (messages.body as { message_type: number; sender?: { type: string } }[]).map((message) => [
        message.message_type,
        message.sender?.type,
      ]),
    ).toEqual([
      [0, 'contact'],
      [1, 'agent_bot'],
    ]);
    for (const listed of (await request(`${contactBase}/conversations`)).body as unknown[])
      documented(PublicConversation, listed);
    documented(PublicConversation, (await request(conversationBase)).body);

    const resolved = documented(
      PublicConversation,
      (await request(`${conversationBase}/toggle_status`, { body: {} })).body,
    );
    expect(resolved.status).toBe('resolved');
    const survey = documented(
      CsatSurvey,
      (await request(`${stack.url}/public/api/v1/csat_survey/${resolved.uuid}`)).body,
    );
    expect(survey.csat_survey_response).toBeNull();
    const answered = await request(`${stack.url}/public/api/v1/csat_survey/${resolved.uuid}`, {
      method: 'PUT',
      body: { message: { submitted_values: { csat_survey_response: { rating: 5, feedback_message: 'Quick.' } } } },
    });
    expect(documented(CsatSurvey, answered.body).csat_survey_response).toMatchObject({
      rating: 5,
      feedback_message: 'Quick.',
    });
  });
});
