/** The Client API's contacts: `/public/api/v1/inboxes/{inbox_identifier}/contacts[/{contact_identifier}]`. */
import type { ApiRoutes } from '../../shared/server/index.ts';
import type { ClientService } from './client-service.ts';
import { refuseOverLimit, type ClientApiLimits } from './limits.ts';
import { base, contactParams, errors, inboxParams, tag, type AddressState, type ContactState } from './route-paths.ts';
import { ContactPayload, IdentityQuery, PublicContact, PublicContactRecord } from './schemas.ts';
import { contactRecordShape, contactShape } from './shapes.ts';

export function addContactRoutes<State extends AddressState & ContactState>(
  routes: ApiRoutes<State>,
  client: ClientService,
  { contactsPerAddress }: ClientApiLimits,
): void {
  routes
    .add(
      {
        method: 'post',
        path: `${base}/contacts`,
        tag,
        summary: 'Create (or find) a contact',
        description:
          'Gives the contact of a known source_id, or the contact that proved the same identifier with identifier_hash; ' +
          'otherwise a new contact (new source_id and pubsub_token), of the same person when an unproved contact has the identifier, email or phone number. ' +
          "Nothing claimed without identifier_hash reaches a contact whose identifier was proved; a proved identifier naming another contact's source_id is 401. " +
          `One address creates at most ${contactsPerAddress} contacts a minute.`,
        params: inboxParams,
        body: ContactPayload,
        responses: { 200: { description: 'The contact.', schema: PublicContact } },
        errors: [...errors],
      },
      async (ctx, { body }) => {
        const counted = await client.count('contactsPerAddress', ctx.state.address, contactsPerAddress);
        refuseOverLimit(ctx, counted, `This address may create ${contactsPerAddress} contacts a minute.`);
        ctx.body = contactShape(await client.createContact(ctx.state.inbox, body));
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/contacts/:contact_identifier`,
        tag,
        summary: 'A contact',
        params: contactParams,
        query: IdentityQuery,
        responses: { 200: { description: 'The contact.', schema: PublicContact } },
        errors: [...errors],
      },
      async (ctx, { query }) => {
        ctx.body = contactShape(client.checkContact(ctx.state.inbox, ctx.state.contact, query));
      },
    )
    .add(
      {
        method: 'patch',
        path: `${base}/contacts/:contact_identifier`,
        tag,
        summary: 'Update a contact (custom_attributes are deep-merged)',
        description:
          'identifier is set only with its identifier_hash, and only on a contact without one; without proof it is ignored, as in Chatwoot.',
        params: contactParams,
        body: ContactPayload,
        responses: { 200: { description: 'The contact record.', schema: PublicContactRecord } },
        errors: [...errors],
      },
      async (ctx, { body }) => {
        ctx.body = contactRecordShape(await client.updateContact(ctx.state.inbox, ctx.state.contact, body));
      },
    );
}
