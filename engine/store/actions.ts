import { newId } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import { ActionDefinition } from '../brain/actions.ts';
import type { ActionInputs } from '../brain/actions.ts';

/** Defines (or redefines) an action the account's AI may ask for. */
export async function defineAction(db: Queryable, accountId: string, definition: ActionDefinition): Promise<void> {
  const valid = ActionDefinition.parse(definition);
  await db.query(
    `INSERT INTO actions (account_id, name, description, definition) VALUES ($1, $2, $3, $4::jsonb)
     ON CONFLICT (account_id, name) DO UPDATE SET description = EXCLUDED.description, definition = EXCLUDED.definition`,
    [accountId, valid.name, valid.description, JSON.stringify(valid)],
  );
}

export async function listActions(db: Queryable, accountId: string): Promise<ActionDefinition[]> {
  const rows = await db.query<{ definition: ActionDefinition }>('SELECT definition FROM actions WHERE account_id = $1 ORDER BY name', [accountId]);
  return rows.map((row) => row.definition);
}

/** Sandbox only: the result the engine gives for `action` itself. */
export async function setSandboxFixture(db: Queryable, accountId: string, action: string, result: Record<string, unknown>): Promise<void> {
  await db.query(
    `INSERT INTO sandbox_fixtures (account_id, action, result) VALUES ($1, $2, $3::jsonb)
     ON CONFLICT (account_id, action) DO UPDATE SET result = EXCLUDED.result`,
    [accountId, action, JSON.stringify(result)],
  );
}

export async function findSandboxFixture(db: Queryable, accountId: string, action: string): Promise<Record<string, unknown> | undefined> {
  const [row] = await db.query<{ result: Record<string, unknown> }>('SELECT result FROM sandbox_fixtures WHERE account_id = $1 AND action = $2', [accountId, action]);
  return row?.result;
}

export interface ActionRequestRow {
  id: string;
  conversation_id: string;
  action: string;
  inputs: ActionInputs;
  handled_by: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  created_at: Date;
}

export async function insertActionRequest(tx: Queryable, conversationId: string, action: string, inputs: ActionInputs, handledBy: string | null, now: Date): Promise<string> {
  const id = newId('actionRequest');
  await tx.query(
    "INSERT INTO action_requests (id, conversation_id, action, inputs, handled_by, status, created_at) VALUES ($1, $2, $3, $4::jsonb, $5, 'pending', $6)",
    [id, conversationId, action, JSON.stringify(inputs), handledBy, now],
  );
  return id;
}

export async function findActionRequest(tx: Queryable, conversationId: string, id: string, lock = false): Promise<ActionRequestRow | undefined> {
  const [row] = await tx.query<ActionRequestRow>(
    `SELECT id, conversation_id, action, inputs, handled_by, status, created_at FROM action_requests WHERE id = $1 AND conversation_id = $2${lock ? ' FOR UPDATE' : ''}`,
    [id, conversationId],
  );
  return row;
}

export async function completeActionRequest(tx: Queryable, id: string, status: 'succeeded' | 'failed', result: Record<string, unknown>, now: Date): Promise<void> {
  await tx.query('UPDATE action_requests SET status = $2, result = $3::jsonb, completed_at = $4 WHERE id = $1', [id, status, JSON.stringify(result), now]);
}

export async function listActionRequests(db: Queryable, conversationId: string): Promise<ActionRequestRow[]> {
  return db.query<ActionRequestRow>(
    'SELECT id, conversation_id, action, inputs, handled_by, status, created_at FROM action_requests WHERE conversation_id = $1 ORDER BY created_at, id',
    [conversationId],
  );
}
