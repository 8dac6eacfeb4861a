/**
 * Answers to a contact's interactive messages through the Client API (`PATCH …/messages/{id}`):
 * choices, form values, and the CSAT survey's rating.
 */
import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { Change, Publisher } from '../realtime/publisher.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import { contactCustomer, contactSender } from './contact-customer.ts';
import { findContactConversation } from './conversation-views.ts';
import { loadClientMessage, SERVER_MESSAGE_ID_PREFIX } from './message-views.ts';
import type { MessageUpdatePayload } from './schemas.ts';
import { findAnswerableMessage, setSubmittedValues } from './store/client-views.ts';
import type { ContactRecord } from './store/contacts.ts';

/** What `PATCH …/messages/{id}` may submit: choices or form values, or the survey's answer. */
type SubmittedValues = MessageUpdatePayload['submitted_values'];

interface MessageAnswerDeps {
  sql: Sql;
  conversations: ConversationService;
  publisher: Publisher;
  /** Where people reach the BFF: attachments' data_url is absolute with it, a path without. */
  publicUrl: string;
}

export function createMessageAnswers({ sql, conversations, publisher, publicUrl }: MessageAnswerDeps) {
  const messageView = async (id: number, contact: ContactRecord) =>
    (await loadClientMessage(sql, id, contact, publicUrl))!;

  return {
    /**
     * Answers an interactive message: choices or form values (arrays), or the CSAT rating. A choice
     * picked in an open conversation is also the customer's next message to the AI, as in the widget.
     */
    async updateMessage(
      contact: ContactRecord,
      address: string,
      displayId: string,
      messageId: string,
      submitted: SubmittedValues,
    ) {
      const row = await findContactConversation(sql, contact, displayId);
      const id = Number(messageId);
      const message = Number.isSafeInteger(id) ? await findAnswerableMessage(sql, row.id, id) : undefined;
      if (!message) throw new ParleyError('not_found', `No message ${messageId} in this conversation.`);
      if (!Array.isArray(submitted)) {
        if (message.content_type !== 'input_csat')
          throw new ParleyError('unprocessable', 'A csat_survey_response answers only the survey message.');
        const { rating, feedback_message } = submitted.csat_survey_response;
        await conversations.rate(
          await conversations.mine(contactCustomer(contact), row.uuid),
          rating,
          feedback_message ?? '',
        );
        return messageView(message.id, contact);
      }
      if (message.author === 'customer')
        throw new ParleyError('unprocessable', "A contact's own message takes no submitted values.");
      const conversation = await conversations.mine(contactCustomer(contact), row.uuid);
      const answered: Change = { type: 'message.answered', messageId: message.id };
      await sql.transaction(async (tx) => {
        await setSubmittedValues(tx, message.id, submitted);
        await publisher.record(tx, conversation, [answered]);
      });
      publisher.publish(conversation, answered);
      const picked = submitted[0];
      const text = picked?.value || picked?.title;
      if (message.attributes?.choices?.length && text && row.status !== 'resolved') {
        // One message per answered offer: a repeated PATCH changes the stored values, not the conversation.
        await conversations.send(contactSender(contact, address), row.uuid, {
          text,
          message_id: `${SERVER_MESSAGE_ID_PREFIX}choice.${message.id}`,
        });
      }
      return messageView(message.id, contact);
    },
  };
}
