import { newId, ParleyError } from '../../shared/index.ts';
import type { Environment } from '../../shared/environment.ts';
import type { Queryable } from '../../shared/server/index.ts';
import { ActionDefinition } from '../brain/actions.ts';
import type { ActionInputs } from '../brain/actions.ts';
import type { Caller } from './environment.ts';

/**
 * An account's actions, their sandbox fixtures, and the requests the AI made for them. An action
 * belongs to an environment, as the agent does (migration 018): a sandbox key defines the
 * sandbox's, a live key the live ones, and each environment's customers ask for their own. Only a
 * live action has a URL (its signing secret sealed): sandbox customers never reach one. A live key
 * copies a sandbox action to live (promoteAction).
 */

/** Whose actions: an account's, in one environment. */
export type ActionOwner = Pick<Caller, 'accountId' | 'environment'>;

/** The most actions an account defines in an environment: each is offered to the brain on every message. */
export const ACTIONS_MAX = 100;

/**
 * Defines (or redefines) an action the account's AI may ask for, in both environments (as the demo
 * and the tests fill them; an API key defines in its own environment only); a URL it has stays.
 */
export async function defineAction(db: Queryable, accountId: string, definition: ActionDefinition): Promise<void> {
  const valid = ActionDefinition.parse(definition);
  await db.query(
    `INSERT INTO actions (account_id, environment, name, description, definition)
     SELECT $1, environment, $2, $3, $4::jsonb FROM unnest(ARRAY['sandbox', 'live']) AS e (environment)
     ON CONFLICT (account_id, environment, name) DO UPDATE SET description = EXCLUDED.description, definition = EXCLUDED.definition, updated_at = now()`,
    [accountId, valid.name, valid.description, JSON.stringify(valid)],
  );
}

export interface ActionRow {
  name: string;
  definition: ActionDefinition;
  url: string | null;
  /** The URL's signing secret, sealed; null without a URL. */
  secret: string | null;
  created_at: Date;
  updated_at: Date;
}

const ACTION_COLUMNS = 'name, definition, url, secret, created_at, updated_at';

export async function findAction(db: Queryable, owner: ActionOwner, name: string): Promise<ActionRow | undefined> {
  const [row] = await db.query<ActionRow>(
    `SELECT ${ACTION_COLUMNS} FROM actions WHERE account_id = $1 AND environment = $2 AND name = $3`,
    [owner.accountId, owner.environment, name],
  );
  return row;
}

export async function listActionRows(db: Queryable, owner: ActionOwner): Promise<ActionRow[]> {
  return db.query<ActionRow>(
    `SELECT ${ACTION_COLUMNS} FROM actions WHERE account_id = $1 AND environment = $2 ORDER BY name`,
    [owner.accountId, owner.environment],
  );
}

/**
 * Locks the environment's actions until the transaction ends (an advisory lock: there is no row
 * to lock before the first action), then refuses a new action past the cap. Requests at the same
 * instant count one after the other, so the cap holds.
 */
async function lockAndRefuseOverCap(tx: Queryable, owner: ActionOwner, name: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`actions:${owner.accountId}:${owner.environment}`]);
  const [{ count } = { count: 0 }] = await tx.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM actions WHERE account_id = $1 AND environment = $2 AND name <> $3',
    [owner.accountId, owner.environment, name],
  );
  if (count >= ACTIONS_MAX)
    throw new ParleyError(
      'unprocessable',
      `An account defines at most ${ACTIONS_MAX} actions in an environment; delete one first.`,
    );
}

/**
 * Creates or replaces an action with its URL and sealed secret; `created` says which. Call it
 * inside a transaction: the cap then holds against simultaneous requests.
 */
export async function putAction(
  tx: Queryable,
  owner: ActionOwner,
  definition: ActionDefinition,
  target: { url: string | null; sealedSecret: string | null },
  now: Date,
): Promise<{ row: ActionRow; created: boolean }> {
  const valid = ActionDefinition.parse(definition);
  await lockAndRefuseOverCap(tx, owner, valid.name);
  const [row] = await tx.query<ActionRow & { created: boolean }>(
    `INSERT INTO actions (account_id, environment, name, description, definition, url, secret, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $8)
     ON CONFLICT (account_id, environment, name) DO UPDATE SET description = EXCLUDED.description, definition = EXCLUDED.definition,
       url = EXCLUDED.url, secret = EXCLUDED.secret, updated_at = EXCLUDED.updated_at
     RETURNING ${ACTION_COLUMNS}, (xmax = 0) AS created`,
    [
      owner.accountId,
      owner.environment,
      valid.name,
      valid.description,
      JSON.stringify(valid),
      target.url,
      target.sealedSecret,
      now,
    ],
  );
  const { created, ...stored } = row!;
  return { row: stored, created };
}

/**
 * Copies the account's sandbox action `name` to live: its definition replaces the live one's, and
 * a URL and secret the live action has stay (only a live key sets those). Call it inside a transaction.
 */
export async function promoteAction(
  tx: Queryable,
  accountId: string,
  name: string,
  now: Date,
): Promise<{ row: ActionRow; created: boolean }> {
  const original = await findAction(tx, { accountId, environment: 'sandbox' }, name);
  if (!original) throw new ParleyError('not_found', `No sandbox action ${name} in this account.`);
  const live: ActionOwner = { accountId, environment: 'live' };
  const existing = await findAction(tx, live, name);
  return putAction(
    tx,
    live,
    original.definition,
    { url: existing?.url ?? null, sealedSecret: existing?.secret ?? null },
    now,
  );
}

/** Deletes an action, and its sandbox fixture with the sandbox's action. */
export async function deleteAction(db: Queryable, owner: ActionOwner, name: string): Promise<void> {
  const rows = await db.query(
    `WITH gone AS (DELETE FROM actions WHERE account_id = $1 AND environment = $2 AND name = $3 RETURNING name),
     fixture AS (DELETE FROM sandbox_fixtures WHERE account_id = $1 AND $2 = 'sandbox' AND action IN (SELECT name FROM gone))
     SELECT name FROM gone`,
    [owner.accountId, owner.environment, name],
  );
  if (rows.length === 0) throw new ParleyError('not_found', `No action ${name} for this key.`);
}

/** The URL and sealed secret a live customer's request for `action` is posted to, if it has a URL. */
export async function findActionTarget(
  db: Queryable,
  accountId: string,
  action: string,
): Promise<{ url: string; secret: string } | undefined> {
  const [row] = await db.query<{ url: string; secret: string }>(
    `SELECT url, secret FROM actions
     WHERE account_id = $1 AND environment = 'live' AND name = $2 AND url IS NOT NULL AND secret IS NOT NULL`,
    [accountId, action],
  );
  return row;
}

/** The actions the owner's customers may ask for. */
export async function listActions(db: Queryable, owner: ActionOwner): Promise<ActionDefinition[]> {
  const rows = await db.query<{ definition: ActionDefinition }>(
    'SELECT definition FROM actions WHERE account_id = $1 AND environment = $2 ORDER BY name',
    [owner.accountId, owner.environment],
  );
  return rows.map((row) => row.definition);
}

/** Sandbox only: the result the engine gives for `action` itself. */
export async function setSandboxFixture(
  db: Queryable,
  accountId: string,
  action: string,
  result: Record<string, unknown>,
  now = new Date(),
): Promise<FixtureRow> {
  const [row] = await db.query<FixtureRow>(
    `INSERT INTO sandbox_fixtures (account_id, action, result, updated_at) VALUES ($1, $2, $3::jsonb, $4)
     ON CONFLICT (account_id, action) DO UPDATE SET result = EXCLUDED.result, updated_at = EXCLUDED.updated_at
     RETURNING action, result, updated_at`,
    [accountId, action, JSON.stringify(result), now],
  );
  return row!;
}

export interface FixtureRow {
  action: string;
  result: Record<string, unknown>;
  updated_at: Date;
}

export async function listSandboxFixtures(db: Queryable, accountId: string): Promise<FixtureRow[]> {
  return db.query<FixtureRow>(
    'SELECT action, result, updated_at FROM sandbox_fixtures WHERE account_id = $1 ORDER BY action',
    [accountId],
  );
}

export async function deleteSandboxFixture(db: Queryable, accountId: string, action: string): Promise<void> {
  const rows = await db.query('DELETE FROM sandbox_fixtures WHERE account_id = $1 AND action = $2 RETURNING action', [
    accountId,
    action,
  ]);
  if (rows.length === 0) throw new ParleyError('not_found', `No sandbox fixture for the action ${action}.`);
}

export async function findSandboxFixture(
  db: Queryable,
  accountId: string,
  action: string,
): Promise<Record<string, unknown> | undefined> {
  const [row] = await db.query<{ result: Record<string, unknown> }>(
    'SELECT result FROM sandbox_fixtures WHERE account_id = $1 AND action = $2',
    [accountId, action],
  );
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

export async function insertActionRequest(
  tx: Queryable,
  conversationId: string,
  action: string,
  inputs: ActionInputs,
  handledBy: string | null,
  now: Date,
): Promise<string> {
  const id = newId('actionRequest');
  await tx.query(
    "INSERT INTO action_requests (id, conversation_id, action, inputs, handled_by, status, created_at) VALUES ($1, $2, $3, $4::jsonb, $5, 'pending', $6)",
    [id, conversationId, action, JSON.stringify(inputs), handledBy, now],
  );
  return id;
}

export async function findActionRequest(
  tx: Queryable,
  conversationId: string,
  id: string,
  lock = false,
): Promise<ActionRequestRow | undefined> {
  const [row] = await tx.query<ActionRequestRow>(
    `SELECT id, conversation_id, action, inputs, handled_by, status, created_at FROM action_requests WHERE id = $1 AND conversation_id = $2${lock ? ' FOR UPDATE' : ''}`,
    [id, conversationId],
  );
  return row;
}

export async function completeActionRequest(
  tx: Queryable,
  id: string,
  status: 'succeeded' | 'failed',
  result: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await tx.query('UPDATE action_requests SET status = $2, result = $3::jsonb, completed_at = $4 WHERE id = $1', [
    id,
    status,
    JSON.stringify(result),
    now,
  ]);
}

export async function listActionRequests(db: Queryable, conversationId: string): Promise<ActionRequestRow[]> {
  return db.query<ActionRequestRow>(
    'SELECT id, conversation_id, action, inputs, handled_by, status, created_at FROM action_requests WHERE conversation_id = $1 ORDER BY created_at, id',
    [conversationId],
  );
}

/** A request whose action's URL the engine is to call, as the caller needs it. */
export interface LiveCall {
  id: string;
  conversation_id: string;
  action: string;
  inputs: ActionInputs;
  created_at: Date;
  account_id: string;
  environment: Environment;
  customer_ref: string;
}

/**
 * Takes the lease on calling a request's URL until `until`, unless another process holds it or
 * the request has its result: gives the request then, otherwise undefined.
 */
export async function claimLiveCall(db: Queryable, id: string, now: Date, until: Date): Promise<LiveCall | undefined> {
  const [row] = await db.query<LiveCall>(
    `UPDATE action_requests r SET call_until = $3 FROM conversations c
     WHERE r.id = $1 AND c.id = r.conversation_id AND r.handled_by = 'url' AND r.status = 'pending' AND (r.call_until IS NULL OR r.call_until < $2)
     RETURNING r.id, r.conversation_id, r.action, r.inputs, r.created_at, c.account_id, c.environment, c.customer_ref`,
    [id, now, until],
  );
  return row;
}

/** Requests whose URL is still to be called and that no process holds: left by a process that stopped before it called. */
export async function lapsedLiveCalls(db: Queryable, now: Date, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT r.id FROM action_requests r JOIN conversations c ON c.id = r.conversation_id
     WHERE r.handled_by = 'url' AND r.status = 'pending' AND (r.call_until IS NULL OR r.call_until < $1) ORDER BY r.created_at LIMIT $2`,
    [now, limit],
  );
  return rows.map((row) => row.id);
}

/** Records a result on a request that has none yet, outside any conversation move (a closed conversation's). */
export async function settlePendingRequest(
  db: Queryable,
  id: string,
  status: 'succeeded' | 'failed',
  result: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await db.query(
    "UPDATE action_requests SET status = $2, result = $3::jsonb, completed_at = $4 WHERE id = $1 AND status = 'pending'",
    [id, status, JSON.stringify(result), now],
  );
}

/** The feed's `conversation.action_request` event of a request (its id and time), as a URL's body repeats it. */
export async function findRequestEvent(
  db: Queryable,
  call: LiveCall,
): Promise<{ id: string; created_at: Date } | undefined> {
  const [row] = await db.query<{ id: string; created_at: Date }>(
    `SELECT id, created_at FROM events WHERE account_id = $1 AND environment = $2 AND conversation_id = $3
       AND type = 'conversation.action_request' AND data->>'action_request_id' = $4 LIMIT 1`,
    [call.account_id, call.environment, call.conversation_id, call.id],
  );
  return row;
}
