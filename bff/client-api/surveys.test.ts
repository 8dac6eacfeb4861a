import { describe, expect, it } from 'vitest';
import { DRIVERS } from '../../test/stack.ts';
import { until } from '../../test/until.ts';
import {
  request,
  DAY_MS,
  expectFields,
  expectMessage,
  expectDeskError,
  useClientApi,
  type Message,
} from '../../test/client-api-fixture.ts';

/** The helpdesk Client API over HTTP (answers to messages and surveys); see test/client-api-fixture.ts for what they share. */
describe.each(DRIVERS)('helpdesk Client API: answers to messages and surveys, on $name', (driver) => {
  const api = useClientApi(driver);
  const { clock, createContact, openConversation, listMessages, resolve, patchMessage, ask, surveyOf } = api;

  describe('PATCH messages/{message_id} (submitted_values)', () => {
    it('stores choices and form values (arrays) on an answer and shows them in content_attributes.submitted_values', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const list = await ask(api.stack.inboxIdentifier, contact.source_id, conversation.id, 'How do I return an item?');
      const answer = list.find((message) => message.message_type === 1)!;

      const choice = [{ title: 'Yes, please', value: 'yes' }];
      const chosen = await patchMessage(
        api.stack.inboxIdentifier,
        contact.source_id,
        conversation.id,
        answer.id,
        choice,
      );
      expect(chosen.status).toBe(200);
      expectMessage(chosen.body);
      expect(chosen.body).toMatchObject({
        id: answer.id,
        message_type: 1,
        content_attributes: { submitted_values: choice },
      });

      const form = [
        { name: 'email', value: 'form@example.com' },
        { name: 'order', value: 'A-7' },
      ];
      const filled = await patchMessage(api.stack.inboxIdentifier, contact.source_id, conversation.id, answer.id, form);
      expect(filled.status).toBe(200);
      expect(filled.body.content_attributes.submitted_values).toEqual(form);
      const listed = await listMessages(api.stack.inboxIdentifier, contact.source_id, conversation.id);
      expect(listed.find((message) => message.id === answer.id)!.content_attributes['submitted_values']).toEqual(form);
    });

    it("passes a choice picked by PATCH on to the AI as the contact's next message, once, and the AI answers it", async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const list = await ask(api.stack.inboxIdentifier, contact.source_id, conversation.id, 'gift card');
      const offer = list.find((message) => message.content_type === 'input_select')!;
      expect(offer.content_attributes['items']).toContainEqual({
        title: 'Items that cannot be returned',
        value: 'Items that cannot be returned',
      });

      const pick = [{ title: 'Items that cannot be returned', value: 'Items that cannot be returned' }];
      expect(
        (await patchMessage(api.stack.inboxIdentifier, contact.source_id, conversation.id, offer.id, pick)).status,
      ).toBe(200);
      await api.stack.bff.relay.settled();
      const answered = await until(
        () => listMessages(api.stack.inboxIdentifier, contact.source_id, conversation.id),
        (messages) =>
          messages.some(
            (message) =>
              message.message_type === 1 &&
              message.id > offer.id &&
              /Gift cards, opened personal care/.test(message.content ?? ''),
          ),
        'the answer to the choice',
      );
      const picked = answered.filter(
        (message) => message.message_type === 0 && message.content === 'Items that cannot be returned',
      );
      expect(picked).toHaveLength(1);

      // Picking again changes the stored values, not the conversation.
      expect(
        (await patchMessage(api.stack.inboxIdentifier, contact.source_id, conversation.id, offer.id, pick)).status,
      ).toBe(200);
      await api.stack.bff.relay.settled();
      const again = await listMessages(api.stack.inboxIdentifier, contact.source_id, conversation.id);
      expect(again.filter((message) => message.message_type === 0)).toHaveLength(2);
      expect(again.length).toBe(answered.length);
    });

    it("refuses values on the contact's own message and a rating on a message that is not the survey with 422, changing nothing", async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const list = await ask(api.stack.inboxIdentifier, contact.source_id, conversation.id, 'Do you ship abroad?');
      const own = list.find((message) => message.message_type === 0)!;
      const answer = list.find((message) => message.message_type === 1)!;
      expectDeskError(
        await patchMessage(api.stack.inboxIdentifier, contact.source_id, conversation.id, own.id, [{ value: 'x' }]),
        422,
        'unprocessable',
      );
      expectDeskError(
        await patchMessage(api.stack.inboxIdentifier, contact.source_id, conversation.id, answer.id, {
          csat_survey_response: { rating: 5 },
        }),
        422,
        'unprocessable',
      );
      expectDeskError(
        await patchMessage(api.stack.inboxIdentifier, contact.source_id, conversation.id, answer.id, 'yes'),
        422,
        'unprocessable',
      );
      const after = await listMessages(api.stack.inboxIdentifier, contact.source_id, conversation.id);
      for (const message of after) expect(message.content_attributes).not.toHaveProperty('submitted_values');
      expect(
        (
          await api.stack.bffSql.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM surveys WHERE conversation_id = $1',
            [conversation.id],
          )
        )[0]!.n,
      ).toBe(0);
    });

    it('answers the survey with {csat_survey_response: {rating, feedback_message}}, which the survey routes then show; a rating outside 1–5 is 422', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const resolved = await resolve(api.stack.inboxIdentifier, contact.source_id, conversation.id);
      const survey = (resolved.body.messages as Message[]).find((message) => message.content_type === 'input_csat')!;

      for (const rating of [0, 6, 4.5]) {
        expectDeskError(
          await patchMessage(api.stack.inboxIdentifier, contact.source_id, conversation.id, survey.id, {
            csat_survey_response: { rating },
          }),
          422,
          'unprocessable',
        );
      }
      expect((await surveyOf(conversation.uuid)).body.csat_survey_response).toBeNull();

      const answered = await patchMessage(api.stack.inboxIdentifier, contact.source_id, conversation.id, survey.id, {
        csat_survey_response: { rating: 4, feedback_message: 'Quick and clear' },
      });
      expect(answered.status).toBe(200);
      expectMessage(answered.body);
      expect(answered.body).toMatchObject({
        id: survey.id,
        content_type: 'input_csat',
        content_attributes: {
          submitted_values: { csat_survey_response: { rating: 4, feedback_message: 'Quick and clear' } },
        },
      });
      const shown = await surveyOf(conversation.uuid);
      expect(shown.status).toBe(200);
      expect(shown.body.csat_survey_response).toMatchObject({ rating: 4, feedback_message: 'Quick and clear' });
    });

    it('lets a rating be changed within 14 days of the answer and refuses a change after that with 422, keeping the rating', async () => {
      clock.frozenAt = Date.now();
      try {
        const contact = await createContact();
        const conversation = await openConversation(contact.source_id);
        const resolved = await resolve(api.stack.inboxIdentifier, contact.source_id, conversation.id);
        const survey = (resolved.body.messages as Message[]).find((message) => message.content_type === 'input_csat')!;
        const rate = (rating: number) =>
          patchMessage(api.stack.inboxIdentifier, contact.source_id, conversation.id, survey.id, {
            csat_survey_response: { rating },
          });
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
        const resolved = await resolve(api.stack.inboxIdentifier, contact.source_id, conversation.id);
        const survey = (resolved.body.messages as Message[]).find((message) => message.content_type === 'input_csat')!;
        clock.frozenAt += 15 * DAY_MS;
        const late = await patchMessage(api.stack.inboxIdentifier, contact.source_id, conversation.id, survey.id, {
          csat_survey_response: { rating: 1 },
        });
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
      const list = await ask(api.stack.inboxIdentifier, contact.source_id, elsewhere.id, 'Do you ship abroad?');
      const foreign = list.find((message) => message.message_type === 1)!;
      expectDeskError(
        await patchMessage(api.stack.inboxIdentifier, contact.source_id, conversation.id, 999999999, [{ value: 'x' }]),
        404,
        'not_found',
      );
      expectDeskError(
        await patchMessage(api.stack.inboxIdentifier, contact.source_id, conversation.id, foreign.id, [{ value: 'x' }]),
        404,
        'not_found',
      );
      const after = await listMessages(api.stack.inboxIdentifier, contact.source_id, elsewhere.id);
      expect(after.find((message) => message.id === foreign.id)!.content_attributes).not.toHaveProperty(
        'submitted_values',
      );
    });
  });

  describe('GET and PUT /public/api/v1/csat_survey/{uuid}', () => {
    it('gives the survey of a resolved conversation and stores an answer put to it', async () => {
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const resolved = await resolve(api.stack.inboxIdentifier, contact.source_id, conversation.id);
      const question = (resolved.body.messages as Message[]).find((message) => message.content_type === 'input_csat')!;

      const shown = await surveyOf(conversation.uuid);
      expect(shown.status).toBe(200);
      expectFields(
        shown.body,
        {
          id: 'integer',
          csat_survey_response: 'null',
          display_type: 'string',
          content: 'string',
          inbox_name: 'string',
          locale: 'string',
          created_at: 'string',
        },
        'survey',
      );
      expect(shown.body).toMatchObject({ id: question.id, inbox_name: 'Demo store' });

      const put = await request(`${api.stack.url}/public/api/v1/csat_survey/${conversation.uuid}`, {
        method: 'PUT',
        body: { message: { submitted_values: { csat_survey_response: { rating: 5, feedback_message: 'Great' } } } },
      });
      expect(put.status).toBe(200);
      expect(put.body.csat_survey_response).toMatchObject({ rating: 5, feedback_message: 'Great' });
      expect((await surveyOf(conversation.uuid)).body.csat_survey_response).toMatchObject({
        rating: 5,
        feedback_message: 'Great',
      });

      const bad = await request(`${api.stack.url}/public/api/v1/csat_survey/${conversation.uuid}`, {
        method: 'PUT',
        body: { message: { submitted_values: { csat_survey_response: { rating: 9 } } } },
      });
      expectDeskError(bad, 422, 'unprocessable');
      expect((await surveyOf(conversation.uuid)).body.csat_survey_response).toMatchObject({ rating: 5 });
    });

    it("shows an answer given through PUT /csat_survey on the survey message's submitted_values, as an answer by PATCH does", async () => {
      // Chatwoot's CsatSurveyController#update updates the input_csat message's submitted_values.
      const contact = await createContact();
      const conversation = await openConversation(contact.source_id);
      const resolved = await resolve(api.stack.inboxIdentifier, contact.source_id, conversation.id);
      const question = (resolved.body.messages as Message[]).find((message) => message.content_type === 'input_csat')!;
      const put = await request(`${api.stack.url}/public/api/v1/csat_survey/${conversation.uuid}`, {
        method: 'PUT',
        body: { message: { submitted_values: { csat_survey_response: { rating: 2, feedback_message: 'Slow' } } } },
      });
      expect(put.status).toBe(200);
      const listed = await listMessages(api.stack.inboxIdentifier, contact.source_id, conversation.id);
      expect(listed.find((message) => message.id === question.id)!.content_attributes).toMatchObject({
        submitted_values: { csat_survey_response: { rating: 2, feedback_message: 'Slow' } },
      });
    });

    it('answers an unknown uuid, or a conversation that was never asked for a rating, with 404 not_found', async () => {
      expectDeskError(await surveyOf('00000000-0000-4000-8000-000000000000'), 404, 'not_found');
      expectDeskError(await surveyOf('not-a-uuid'), 404, 'not_found');
      const contact = await createContact();
      const open = await openConversation(contact.source_id);
      expectDeskError(await surveyOf(open.uuid), 404, 'not_found');
      const put = await request(`${api.stack.url}/public/api/v1/csat_survey/${open.uuid}`, {
        method: 'PUT',
        body: { message: { submitted_values: { csat_survey_response: { rating: 5 } } } },
      });
      expectDeskError(put, 404, 'not_found');
      expect(
        (
          await api.stack.bffSql.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM surveys WHERE conversation_id = $1',
            [open.id],
          )
        )[0]!.n,
      ).toBe(0);
    });
  });
});
