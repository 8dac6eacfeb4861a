import {
  CreateKnowledgeRequest,
  KnowledgeDocument,
  KnowledgeDocumentParams,
  KnowledgeList,
  KnowledgeListQuery,
  UpdateKnowledgeRequest,
} from '../../shared/schemas/engine-knowledge.ts';
import { MESSAGE_BODY_LIMIT, type ApiRoutes, type Sql } from '../../shared/server/index.ts';
import type { EngineState } from '../auth.ts';
import {
  approveKnowledgeDocument,
  deleteKnowledgeDocument,
  findKnowledgeDocument,
  insertKnowledgeDocument,
  KNOWLEDGE_DOCUMENTS_MAX,
  pageKnowledgeDocuments,
  updateKnowledgeDocument,
} from '../store/knowledge.ts';

const tag = 'Knowledge';
const security = 'apiKey';
const params = KnowledgeDocumentParams;

interface KnowledgeRouteDeps {
  sql: Sql;
  now: () => Date;
}

/**
 * `/v1/knowledge`: the documents the AI answers from, each answering only once a person approved
 * it. They belong to the account: sandbox and live keys manage the same documents, so what is
 * tried in the sandbox is what live customers are told.
 */
export function addKnowledgeRoutes(routes: ApiRoutes<EngineState>, deps: KnowledgeRouteDeps): void {
  addKnowledgeListRoutes(routes, deps);
  addKnowledgeDocumentRoutes(routes, deps);
}

/** `/v1/knowledge`: the documents, a page at a time, and a new one. */
function addKnowledgeListRoutes(routes: ApiRoutes<EngineState>, { sql, now }: KnowledgeRouteDeps): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/knowledge',
        tag,
        security,
        summary: "The account's knowledge documents",
        description:
          'Oldest first, a page of limit (at most 100, by default 20). Pass next as after to read on while has_more is true; no offsets. approved=true or false lists only those; locale=de only the documents in that language.',
        query: KnowledgeListQuery,
        responses: { 200: { description: 'A page of documents.', schema: KnowledgeList } },
      },
      async (ctx, { query }) => {
        ctx.body = await pageKnowledgeDocuments(sql, ctx.state.caller.accountId, query);
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/knowledge',
        tag,
        security,
        summary: 'Add a knowledge document',
        description: `Markdown with a title, an optional address and its language (en when left out). It is added unapproved: it answers no one until it is approved (POST /v1/knowledge/{id}/approve). An account holds at most ${KNOWLEDGE_DOCUMENTS_MAX} documents.`,
        body: CreateKnowledgeRequest,
        bodyLimit: MESSAGE_BODY_LIMIT,
        responses: { 201: { description: 'The document, unapproved.', schema: KnowledgeDocument } },
        errors: ['unprocessable'],
      },
      async (ctx, { body }) => {
        ctx.status = 201;
        ctx.body = await insertKnowledgeDocument(sql, ctx.state.caller.accountId, body, now());
      },
    );
}

/** `/v1/knowledge/{id}`: one document, read, changed, deleted or approved. */
function addKnowledgeDocumentRoutes(routes: ApiRoutes<EngineState>, { sql, now }: KnowledgeRouteDeps): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/knowledge/:id',
        tag,
        security,
        summary: 'One knowledge document',
        params,
        responses: { 200: { description: 'The document.', schema: KnowledgeDocument } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        ctx.body = await findKnowledgeDocument(sql, ctx.state.caller.accountId, params.id);
      },
    )
    .add(
      {
        method: 'patch',
        path: '/v1/knowledge/:id',
        tag,
        security,
        summary: 'Change a knowledge document',
        description:
          'A change to its title, body, address or language takes its approval away: it answers no one until it is approved again. The values it already has change nothing.',
        params,
        body: UpdateKnowledgeRequest,
        bodyLimit: MESSAGE_BODY_LIMIT,
        responses: { 200: { description: 'The document after the change.', schema: KnowledgeDocument } },
        errors: ['not_found'],
      },
      async (ctx, { params, body }) => {
        ctx.body = await updateKnowledgeDocument(sql, ctx.state.caller.accountId, params.id, body, now());
      },
    )
    .add(
      {
        method: 'delete',
        path: '/v1/knowledge/:id',
        tag,
        security,
        summary: 'Delete a knowledge document',
        params,
        responses: { 204: { description: 'Deleted; the next answer no longer uses it.' } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        await deleteKnowledgeDocument(sql, ctx.state.caller.accountId, params.id);
        ctx.status = 204;
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/knowledge/:id/approve',
        tag,
        security,
        summary: 'Approve a knowledge document',
        description:
          'A person read it: from the next message on, the AI answers from it. Approving an approved document changes nothing.',
        params,
        responses: { 200: { description: 'The document, approved.', schema: KnowledgeDocument } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        ctx.body = await approveKnowledgeDocument(sql, ctx.state.caller.accountId, params.id, now());
      },
    );
}
