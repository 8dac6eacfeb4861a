/**
 * An account's canned responses: listed by short code, and kept by its administrators, each change
 * audited with its before and after.
 */
import type { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { createAuditService } from './audit-service.ts';
import type { Actor } from './store/audit-log.ts';
import {
  deleteCannedResponse,
  findCannedResponse,
  insertCannedResponse,
  listCannedResponses,
  updateCannedResponse,
  type CannedResponseRecord,
} from './store/canned-responses.ts';
import type {
  CannedResponse,
  CannedResponseCreate,
  CannedResponseUpdate,
} from '../../shared/schemas/helpdesk/index.ts';

const shape = (response: CannedResponseRecord): CannedResponse => ({
  id: response.id,
  account_id: response.accountId,
  short_code: response.shortCode,
  content: response.content,
});
const taken = () =>
  new ParleyError('unprocessable', 'This account has a canned response with that short code already.', {
    problems: [{ field: 'short_code', message: 'is taken' }],
  });
const missing = (id: number) => new ParleyError('not_found', `No canned response ${id}.`);

export function createCannedResponseService({ sql, now }: { sql: Sql; now: () => Date }) {
  const { record } = createAuditService({ sql, now });
  const type = 'CannedResponse';

  return {
    async list(accountId: number, search: string | undefined): Promise<CannedResponse[]> {
      return (await listCannedResponses(sql, accountId, search)).map(shape);
    },

    async create(accountId: number, actor: Actor, body: z.infer<typeof CannedResponseCreate>) {
      return sql.transaction(async (tx) => {
        const made = await insertCannedResponse(tx, accountId, body.short_code, body.content, now());
        if (!made) throw taken();
        await record(tx, { accountId, actor, type, id: made.id, action: 'create', before: {}, after: shape(made) });
        return shape(made);
      });
    },

    async update(accountId: number, actor: Actor, id: number, body: z.infer<typeof CannedResponseUpdate>) {
      const before = await findCannedResponse(sql, accountId, id);
      if (!before) throw missing(id);
      return sql.transaction(async (tx) => {
        const changes = { shortCode: body.short_code, content: body.content };
        const after = await updateCannedResponse(tx, accountId, id, changes, now());
        if (after === 'taken') throw taken();
        if (!after) throw missing(id);
        const shown = { before: shape(before), after: shape(after) };
        await record(tx, { accountId, actor, type, id: after.id, action: 'update', ...shown });
        return shown.after;
      });
    },

    async remove(accountId: number, actor: Actor, id: number): Promise<void> {
      const before = await findCannedResponse(sql, accountId, id);
      await sql.transaction(async (tx) => {
        if (!before || !(await deleteCannedResponse(tx, accountId, id))) throw missing(id);
        await record(tx, {
          accountId,
          actor,
          type,
          id: before.id,
          action: 'destroy',
          before: shape(before),
          after: {},
        });
      });
    },
  };
}

export type CannedResponseService = ReturnType<typeof createCannedResponseService>;
