import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { requireStanding, type ApplicationState } from './auth.ts';
import type { ContactService } from './contact-service.ts';
import {
  ContactConversations,
  ContactParams,
  ContactUpdate,
  DeskContact,
} from '../../shared/schemas/helpdesk/index.ts';

const tag = 'Application API';
const security = 'accessToken';
const path = '/api/v1/accounts/:account_id/contacts/:id';
const errors = ['unauthorized', 'not_found', 'unprocessable'] as const;
const contact = { 200: { description: 'The contact.', schema: DeskContact } };

/**
 * Chatwoot's contacts/{id}: read, changed (name, e-mail, phone number in E.164, custom attributes;
 * a bad value is a 422 and changes nothing), and the contact's conversations. A widget customer's
 * contact is made when people first open one of their conversations (its contact.id).
 */
export function addContactRoutes(
  routes: ApiRoutes<ApplicationState>,
  { sql, contacts }: { sql: Sql; contacts: ContactService },
) {
  routes
    .add(
      {
        method: 'get',
        path,
        tag,
        security,
        summary: 'A contact',
        params: ContactParams,
        responses: contact,
        errors: [...errors],
      },
      async (ctx, { params }) => {
        const standing = await requireStanding(sql, ctx.state.caller, params.account_id);
        ctx.body = await contacts.get(params.account_id, ctx.state.caller, standing, params.id);
      },
    )
    .add(
      {
        method: 'patch',
        path,
        tag,
        security,
        summary: "Change a contact's name, e-mail, phone number or custom attributes (its conversations show them)",
        params: ContactParams,
        body: ContactUpdate,
        responses: contact,
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        const standing = await requireStanding(sql, ctx.state.caller, params.account_id);
        ctx.body = await contacts.update(params.account_id, ctx.state.caller, standing, params.id, body);
      },
    )
    .add(
      {
        method: 'get',
        path: `${path}/conversations`,
        tag,
        security,
        summary: "The contact's conversations (at most 100), newest first",
        params: ContactParams,
        responses: { 200: { description: 'The conversations.', schema: ContactConversations } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        const standing = await requireStanding(sql, ctx.state.caller, params.account_id);
        ctx.body = await contacts.conversations(params.account_id, ctx.state.caller, standing, params.id);
      },
    );
}
