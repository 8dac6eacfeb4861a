import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { requireStanding, type ApplicationState } from './auth.ts';
import type { DeskConversationService } from './desk-conversation-service.ts';
import type { ContactService } from './contact-service.ts';
import { searchDeskConversations } from './store/desk-search.ts';
import { highlight } from './search-highlight.ts';
import { deskConversationShape } from './shapes.ts';
import {
  AccountParams,
  ConversationSearchResults,
  DeskContactList,
  SearchQuery,
} from '../../shared/schemas/helpdesk/index.ts';

const tag = 'Application API';
const security = 'accessToken';
const base = '/api/v1/accounts/:account_id';
const errors = ['unauthorized', 'not_found', 'unprocessable'] as const;
const PER_PAGE = 25;

interface SearchRoutesDeps {
  sql: Sql;
  now: () => Date;
  desk: DeskConversationService;
  contacts: ContactService;
}

/**
 * Chatwoot's `conversations/search` and `contacts/search`, in the inboxes the caller may see. Added
 * before the routes with `{id}` in the same place, which would take `search` for an id.
 */
export function addSearchRoutes(routes: ApiRoutes<ApplicationState>, { sql, now, desk, contacts }: SearchRoutesDeps) {
  routes
    .add(
      {
        method: 'get',
        path: `${base}/conversations/search`,
        tag,
        security,
        summary: "Conversations by the customer's words, their name or e-mail, or the conversation's number",
        description:
          'Full text in every language (PostgreSQL, or PGlite), or part of a word; newest first, 25 a page. ' +
          "Each result's highlight is safe HTML: the text escaped, the matches in <mark>.",
        params: AccountParams,
        query: SearchQuery,
        responses: { 200: { description: 'One page of results.', schema: ConversationSearchResults } },
        errors: [...errors],
      },
      async (ctx, { params, query }) => {
        const standing = await requireStanding(sql, ctx.state.caller, params.account_id);
        const inboxIds = await desk.visibleInboxIds(params.account_id, ctx.state.caller, standing);
        const scope = { accountId: params.account_id, inboxIds, now: now() };
        const found = await searchDeskConversations(sql, scope, query.q, { number: query.page, size: PER_PAGE });
        ctx.body = {
          data: {
            meta: { count: found.count },
            payload: found.hits.map((hit) => ({
              ...deskConversationShape(hit.conversation),
              highlight: { field: hit.field, html: highlight(hit.text, hit.field === 'id' ? hit.text : query.q) },
            })),
          },
        };
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/contacts/search`,
        tag,
        security,
        summary: 'Contacts by name, e-mail, phone number or identifier (part of any), newest first; 25 a page',
        params: AccountParams,
        query: SearchQuery,
        responses: { 200: { description: 'One page of contacts.', schema: DeskContactList } },
        errors: [...errors],
      },
      async (ctx, { params, query }) => {
        const standing = await requireStanding(sql, ctx.state.caller, params.account_id);
        ctx.body = await contacts.search(params.account_id, ctx.state.caller, standing, query.q, query.page);
      },
    );
}
