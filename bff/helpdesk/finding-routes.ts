/**
 * The findings of the engine's monitors (issue 29) for the team: the console's Findings list and
 * an open conversation's. Administrators see every inbox's, agents the inboxes they answer, agent
 * bots those they are connected to (as with conversations). Kept by the BFF as `monitor.finding`
 * events arrive (bff/engine-link/event-application.ts), so reading them never asks the engine.
 */
import {
  AccountParams,
  ConversationParams,
  DeskFindingPage,
  DeskFindingsQuery,
} from '../../shared/schemas/helpdesk/index.ts';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { requireStanding, type ApplicationState } from './auth.ts';
import type { DeskConversationAccess } from './desk-conversation-access.ts';
import { pageDeskFindings } from './store/findings.ts';

const tag = 'Application API';
const security = 'accessToken';
const paging =
  'Newest first, 25 a page; give `next` as `after` for the next page (422 for a cursor that is not a finding id).';

export interface FindingRouteDeps {
  sql: Sql;
  access: Pick<DeskConversationAccess, 'visibleInboxIds' | 'find'>;
}

export function addFindingRoutes(routes: ApiRoutes<ApplicationState>, { sql, access }: FindingRouteDeps): void {
  routes
    .add(
      {
        method: 'get',
        path: '/api/v1/accounts/:account_id/findings',
        tag,
        security,
        summary: "What the AI engine's monitors found in the account's conversations",
        description: `Each monitor.finding of a conversation the caller may see (agents: the inboxes they answer), with the monitor's name, the severity, the words found and the environment (a finding shows only with a conversation of its own environment; \`environment\` keeps one). ${paging}`,
        params: AccountParams,
        query: DeskFindingsQuery,
        responses: { 200: { description: 'A page of findings.', schema: DeskFindingPage } },
        errors: ['unauthorized', 'unprocessable'],
      },
      async (ctx, { params, query }) => {
        const accountId = params.account_id;
        const standing = await requireStanding(sql, ctx.state.caller, accountId);
        const inboxIds = await access.visibleInboxIds(accountId, ctx.state.caller, standing);
        ctx.body = await pageDeskFindings(sql, { accountId, inboxIds, ...filterOf(query) });
      },
    )
    .add(
      {
        method: 'get',
        path: '/api/v1/accounts/:account_id/conversations/:conversation_id/findings',
        tag,
        security,
        summary: "What the AI engine's monitors found in one conversation",
        description: `The conversation's monitor findings, for the team only (the customer never sees them). ${paging}`,
        params: ConversationParams,
        query: DeskFindingsQuery,
        responses: { 200: { description: 'A page of findings.', schema: DeskFindingPage } },
        errors: ['unauthorized', 'not_found', 'unprocessable'],
      },
      async (ctx, { params, query }) => {
        const accountId = params.account_id;
        const standing = await requireStanding(sql, ctx.state.caller, accountId);
        const conversation = await access.find(accountId, ctx.state.caller, standing, params.conversation_id);
        ctx.body = await pageDeskFindings(sql, {
          accountId,
          conversationId: conversation.record.id,
          ...filterOf(query),
        });
      },
    );
}

const filterOf = ({ after, severity, environment }: DeskFindingsQuery) => ({
  after: after === undefined ? undefined : Number(after),
  severity,
  environment,
});
