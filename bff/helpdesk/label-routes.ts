import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { ParleyError } from '../../shared/index.ts';
import { requireStanding, type ApplicationState } from './auth.ts';
import type { DeskConversationService } from './desk-conversation-service.ts';
import { createAuditService, type RecordChange } from './audit-service.ts';
import type { Publisher } from '../realtime/publisher.ts';
import {
  AccountParams,
  ConversationLabels,
  ConversationLabelsSet,
  ConversationParams,
  Label,
  LabelCreate,
  LabelList,
  LabelParams,
  LabelUpdate,
} from '../../shared/schemas/helpdesk/index.ts';
import {
  conversationLabels,
  deleteLabel,
  findLabel,
  insertLabel,
  listLabels,
  replaceConversationLabels,
  updateLabel,
} from './store/labels.ts';

const tag = 'Application API';
const security = 'accessToken';
const base = '/api/v1/accounts/:account_id/labels';
const errors = ['unauthorized', 'not_found', 'unprocessable'] as const;
const taken = () =>
  new ParleyError('unprocessable', 'This account has a label with that title already.', {
    problems: [{ field: 'title', message: 'is taken' }],
  });
const missing = (id: number) => new ParleyError('not_found', `No label ${id} in this account.`);

interface LabelRoutesDeps {
  sql: Sql;
  now: () => Date;
  desk: DeskConversationService;
  /** Tells the people's other consoles that a conversation's labels changed (`conversation:changed`). */
  publisher: Pick<Publisher, 'publish'>;
}

/** The account's labels: every person reads them, administrators keep them (Chatwoot's), each change audited. */
function addAccountLabelRoutes(routes: ApiRoutes<ApplicationState>, { sql, now }: LabelRoutesDeps): void {
  const { record } = createAuditService({ sql, now });
  routes
    .add(
      {
        method: 'get',
        path: base,
        tag,
        security,
        summary: "The account's labels, by title",
        params: AccountParams,
        responses: { 200: { description: 'The labels.', schema: LabelList } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id);
        ctx.body = { payload: await listLabels(sql, params.account_id) };
      },
    )
    .add(
      {
        method: 'post',
        path: base,
        tag,
        security,
        summary: 'Add a label (administrators)',
        params: AccountParams,
        body: LabelCreate,
        responses: { 200: { description: 'The label.', schema: Label } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id, 'administrator');
        ctx.body = await sql.transaction(async (tx) => {
          const made = (await insertLabel(tx, params.account_id, body, now())) ?? throwing(taken());
          const { account_id: accountId } = params;
          await record(tx, {
            accountId,
            actor: ctx.state.actor,
            type: 'Label',
            id: made.id,
            action: 'create',
            before: {},
            after: { ...made },
          });
          return made;
        });
      },
    );
  addLabelChangeRoutes(routes, { sql, record });
}

/** Administrators change and delete the account's labels, each change audited. */
function addLabelChangeRoutes(
  routes: ApiRoutes<ApplicationState>,
  { sql, record }: { sql: Sql; record: RecordChange },
): void {
  routes
    .add(
      {
        method: 'patch',
        path: `${base}/:id`,
        tag,
        security,
        summary: 'Change a label (administrators)',
        params: LabelParams,
        body: LabelUpdate,
        responses: { 200: { description: 'The label.', schema: Label } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id, 'administrator');
        ctx.body = await sql.transaction(async (tx) => {
          const before = (await findLabel(tx, params.account_id, params.id)) ?? throwing(missing(params.id));
          const after = await updateLabel(tx, params.account_id, params.id, body);
          if (after === 'taken') throw taken();
          if (!after) throw missing(params.id);
          const { account_id: accountId } = params;
          await record(tx, {
            accountId,
            actor: ctx.state.actor,
            type: 'Label',
            id: after.id,
            action: 'update',
            before: { ...before },
            after: { ...after },
          });
          return after;
        });
      },
    )
    .add(
      {
        method: 'delete',
        path: `${base}/:id`,
        tag,
        security,
        summary: 'Delete a label (administrators): it leaves every conversation that had it',
        params: LabelParams,
        responses: { 200: { description: 'Done (empty body).' } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id, 'administrator');
        await sql.transaction(async (tx) => {
          const before = (await findLabel(tx, params.account_id, params.id)) ?? throwing(missing(params.id));
          if (!(await deleteLabel(tx, params.account_id, params.id))) throw missing(params.id);
          const { account_id: accountId } = params;
          await record(tx, {
            accountId,
            actor: ctx.state.actor,
            type: 'Label',
            id: before.id,
            action: 'destroy',
            before: { ...before },
            after: {},
          });
        });
        ctx.body = '';
      },
    );
}

/** A conversation's labels: read, and replaced as a set (Chatwoot's POST …/labels). */
function addConversationLabelRoutes(
  routes: ApiRoutes<ApplicationState>,
  { sql, desk, publisher }: LabelRoutesDeps,
): void {
  const path = '/api/v1/accounts/:account_id/conversations/:conversation_id/labels';
  routes
    .add(
      {
        method: 'get',
        path,
        tag,
        security,
        summary: "A conversation's labels",
        params: ConversationParams,
        responses: { 200: { description: 'The titles.', schema: ConversationLabels } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        const standing = await requireStanding(sql, ctx.state.caller, params.account_id);
        const found = await desk.find(params.account_id, ctx.state.caller, standing, params.conversation_id);
        ctx.body = { payload: await conversationLabels(sql, found.record.id) };
      },
    )
    .add(
      {
        method: 'post',
        path,
        tag,
        security,
        summary: "Set a conversation's labels (the set given replaces the one it had)",
        description: 'Titles of labels of the account; an unknown title is a 422 and changes nothing.',
        params: ConversationParams,
        body: ConversationLabelsSet,
        responses: { 200: { description: 'The titles.', schema: ConversationLabels } },
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        const standing = await requireStanding(sql, ctx.state.caller, params.account_id);
        const found = await desk.find(params.account_id, ctx.state.caller, standing, params.conversation_id);
        const titles = [...new Set(body.labels)];
        await sql.transaction(async (tx) => {
          const { unknown } = await replaceConversationLabels(tx, params.account_id, found.record.id, titles);
          if (unknown.length)
            throw new ParleyError('unprocessable', `This account has no label ${unknown.join(', ')}.`, {
              problems: [{ field: 'labels', message: `unknown: ${unknown.join(', ')}` }],
            });
        });
        publisher.publish(found.record, { type: 'labels.changed' });
        ctx.body = { payload: await conversationLabels(sql, found.record.id) };
      },
    );
}

const throwing = (error: Error): never => {
  throw error;
};

/** Labels (Chatwoot's `labels` and `conversations/{id}/labels`); the list filters by them (`labels[]`). */
export function addLabelRoutes(routes: ApiRoutes<ApplicationState>, deps: LabelRoutesDeps): void {
  addAccountLabelRoutes(routes, deps);
  addConversationLabelRoutes(routes, deps);
}
