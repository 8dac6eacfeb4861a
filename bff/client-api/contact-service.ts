/**
 * The contacts of the Client API: finding the contact a path names, creating (or finding) one with
 * or without a proved identifier (HMAC, `hmac.ts`), and updating one.
 */
import { ParleyError } from '../../shared/index.ts';
import { isUniqueViolation, type SecretBox, type Sql } from '../../shared/server/index.ts';
import type { ClientInbox } from '../store/inboxes.ts';
import { checkIdentity } from './hmac.ts';
import { CUSTOM_ATTRIBUTES_MAX_BYTES, type ContactPayload } from './schemas.ts';
import {
  deepMerge,
  findContactBySource,
  findProvedContact,
  insertContact,
  matchUnprovedContact,
  updateContact,
  type ContactRecord,
} from './store/contacts.ts';

interface ContactServiceDeps {
  sql: Sql;
  /** Seals a contact's source_id and pubsub_token, and hashes them to find it by (issue 33). */
  secrets: SecretBox;
  now: () => Date;
}

/** What a contact payload sets on a contact, besides its identifier. */
const contactFields = (body: ContactPayload) => ({
  name: body.name,
  email: body.email,
  phoneNumber: body.phone_number,
  customAttributes: body.custom_attributes,
});

export function createContactService(deps: ContactServiceDeps) {
  const { sql, secrets, now } = deps;
  return {
    async contactOf(inbox: ClientInbox, sourceId: string): Promise<ContactRecord> {
      const contact = await findContactBySource(sql, secrets, inbox.id, sourceId);
      if (!contact) throw new ParleyError('not_found', `No contact ${sourceId} in this inbox.`);
      return contact;
    },

    /** The contact of a known source_id or of a proved identifier, or a new one (`findOrCreateContact`). */
    createContact: (inbox: ClientInbox, body: ContactPayload) => findOrCreateContact(deps, inbox, body),

    checkContact(
      inbox: ClientInbox,
      contact: ContactRecord,
      identity: { identifier?: string | undefined; identifier_hash?: string | undefined },
    ): ContactRecord {
      const proved = checkIdentity(inbox, identity.identifier, identity.identifier_hash);
      if (proved && identity.identifier !== contact.identifier)
        throw new ParleyError('unauthorized', 'The identifier does not belong to this contact.');
      return contact;
    },

    /**
     * Updates the contact. The identifier is set only with its identifier_hash and only where the
     * contact has none; without proof it is ignored, as Chatwoot's update ignores it.
     */
    async updateContact(inbox: ClientInbox, contact: ContactRecord, body: ContactPayload) {
      // Each request is held to the limit; so is what the contact keeps once merged, or PATCHes would add up without end.
      if (
        body.custom_attributes &&
        Buffer.byteLength(JSON.stringify(deepMerge(contact.customAttributes, body.custom_attributes))) >
          CUSTOM_ATTRIBUTES_MAX_BYTES
      ) {
        throw new ParleyError(
          'unprocessable',
          `A contact keeps at most ${CUSTOM_ATTRIBUTES_MAX_BYTES / 1024} KB of custom attributes (as JSON); these would make it more.`,
        );
      }
      const proved = checkIdentity(inbox, body.identifier, body.identifier_hash);
      if (proved && contact.identifier && body.identifier !== contact.identifier)
        throw new ParleyError('unauthorized', 'The identifier does not belong to this contact.');
      // One contact per proved identifier (migration 033): another that proved it first keeps it.
      const provedElsewhere = () =>
        new ParleyError(
          'unprocessable',
          'Another contact of this inbox proved this identifier: create the contact with it (POST) to get that one.',
          { problems: [{ field: 'identifier', message: 'is proved by another contact' }] },
        );
      if (proved && !contact.identifier) {
        const owner = await findProvedContact(sql, secrets, inbox.id, body.identifier!);
        if (owner && owner.id !== contact.id) throw provedElsewhere();
      }
      const proof = proved ? { proved, identifier: body.identifier! } : { proved };
      return updateContact(sql, secrets, contact, contactFields(body), proof, now()).catch((error: unknown) => {
        throw proved && isUniqueViolation(error) ? provedElsewhere() : error;
      });
    },
  };
}

/**
 * Gives the contact of a known source_id; gives the contact whose identifier was proved when the
 * caller proves it too; otherwise makes a new contact (new source_id and pubsub_token). What a
 * caller claims without proof never reaches a proved contact (issue 12: whoever named a
 * customer's identifier first would otherwise be handed that customer's contact once the site
 * proved it): a match by identifier, email or phone links the new contact to a person nobody
 * proved and hands out nothing of the matched one, and an identifier someone proved is not
 * stored on a contact that did not prove it.
 */
async function findOrCreateContact(
  { sql, secrets, now }: ContactServiceDeps,
  inbox: ClientInbox,
  body: ContactPayload,
) {
  const proved = checkIdentity(inbox, body.identifier, body.identifier_hash);
  if (body.source_id) {
    const known = await findContactBySource(sql, secrets, inbox.id, body.source_id);
    // A proved identity gets only its own proved contact, never one someone registered under a source_id they guessed.
    if (known && proved && !(known.hmacVerified && known.identifier === body.identifier)) {
      throw new ParleyError(
        'unauthorized',
        'This source_id belongs to another contact: create the contact without a source_id, or with one of its own.',
      );
    }
    if (known) return known;
  }
  const fields = contactFields(body);
  if (proved) {
    const own = await findProvedContact(sql, secrets, inbox.id, body.identifier!);
    if (own) return own;
    const made = { ...fields, identifier: body.identifier };
    return insertContact(sql, secrets, inbox.id, body.source_id, made, now(), { hmacVerified: true }).catch(
      async (error: unknown) => {
        // Two creates of one proved identifier at the same instant: the unique index lets one in, and both get it.
        const first = isUniqueViolation(error)
          ? await findProvedContact(sql, secrets, inbox.id, body.identifier!)
          : undefined;
        if (!first) throw error;
        return first;
      },
    );
  }
  const claimed =
    body.identifier && !(await findProvedContact(sql, secrets, inbox.id, body.identifier))
      ? body.identifier
      : undefined;
  const person = await matchUnprovedContact(sql, secrets, inbox.id, {
    identifier: claimed,
    email: body.email,
    phoneNumber: body.phone_number,
  });
  return insertContact(sql, secrets, inbox.id, body.source_id, { ...fields, identifier: claimed }, now(), {
    personId: person?.personId,
  });
}
