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
import { promoteKnowledgeDocument } from '../store/knowledge-copies.ts';
import { requireLiveKey } from './live-key.ts';
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
 * it. They belong to the key's environment: a sandbox key reads and changes the sandbox's documents
 * only (a live one is not found), and what is tried there reaches live customers when a live key
 * promotes it.
 */
export function addKnowledgeRoutes(routes: ApiRoutes<EngineState>, deps: KnowledgeRouteDeps): void {
  addKnowledgeListRoutes(routes, deps);
  addKnowledgeDocumentRoutes(routes, deps);
  addKnowledgePromotionRoute(routes, deps);
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
        summary: "The environment's knowledge documents",
        description:
          'Oldest first, a page of limit (at most 100, by default 20). Pass next as after to read on while has_more is true; no offsets. approved=true or false lists only those; locale=de only the documents in that language.',
        query: KnowledgeListQuery,
        responses: { 200: { description: 'A page of documents.', schema: KnowledgeList } },
      },
      async (ctx, { query }) => {
        ctx.body = await pageKnowledgeDocuments(sql, ctx.state.caller, query);
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/knowledge',
        tag,
        security,
        summary: 'Add a knowledge document',
        description: `Markdown with a title, an optional address and its language (en when left out). It is added unapproved: it answers no one until it is approved (POST /v1/knowledge/{id}/approve). It belongs to the key's environment; an account holds at most ${KNOWLEDGE_DOCUMENTS_MAX} documents in each.`,
        body: CreateKnowledgeRequest,
        bodyLimit: MESSAGE_BODY_LIMIT,
        responses: { 201: { description: 'The document, unapproved.', schema: KnowledgeDocument } },
        errors: ['unprocessable'],
      },
      async (ctx, { body }) => {
        const { caller } = ctx.state;
        // In a transaction: the environment's knowledge is locked while the cap is counted.
        ctx.body = await sql.transaction((tx) => insertKnowledgeDocument(tx, caller, body, now()));
        ctx.status = 201;
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
        ctx.body = await findKnowledgeDocument(sql, ctx.state.caller, params.id);
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
        ctx.body = await updateKnowledgeDocument(sql, ctx.state.caller, params.id, body, now());
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
        await deleteKnowledgeDocument(sql, ctx.state.caller, params.id);
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
        ctx.body = await approveKnowledgeDocument(sql, ctx.state.caller, params.id, now());
      },
    );
}

/** `POST /v1/knowledge/{id}/promote`: a live key copies a sandbox document to live. */
function addKnowledgePromotionRoute(routes: ApiRoutes<EngineState>, { sql, now }: KnowledgeRouteDeps): void {
  routes.add(
    {
      method: 'post',
      path: '/v1/knowledge/:id/promote',
      tag,
      security,
      summary: 'Copy a sandbox document to live',
      description: `Live keys only; id is the sandbox document's. Its title, body, address, language and approval are copied to live: over the live document promoted from it before (or imported from the same file), else as a new live document (within the ${KNOWLEDGE_DOCUMENTS_MAX}). Live customers are answered from it from the next message on if it is approved.`,
      params,
      responses: {
        200: { description: 'The live document, updated.', schema: KnowledgeDocument },
        201: { description: 'The live document, added.', schema: KnowledgeDocument },
      },
      errors: ['forbidden', 'not_found', 'unprocessable'],
    },
    async (ctx, { params }) => {
      const { caller } = ctx.state;
      requireLiveKey(caller, 'Promoting a document to live');
      const { document, created } = await sql.transaction((tx) =>
        promoteKnowledgeDocument(tx, caller.accountId, params.id, now()),
      );
      ctx.status = created ? 201 : 200;
      ctx.body = document;
    },
  );
}
