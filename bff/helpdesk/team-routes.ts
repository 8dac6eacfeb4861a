import { z } from 'zod';
import type { ApiRoutes, Queryable, Sql } from '../../shared/server/index.ts';
import { ParleyError } from '../../shared/index.ts';
import { requireStanding, type ApplicationState } from './auth.ts';
import { listAccountUsers } from './store/accounts.ts';
import { findUser } from './store/users.ts';
import { accountAvailabilities } from './store/availabilities.ts';
import {
  deleteTeam,
  findTeam,
  type TeamRow,
  insertTeam,
  listTeams,
  setTeamMembers,
  teamMemberIds,
  updateTeam,
} from './store/teams.ts';
import { personShape } from './shapes.ts';
import { createAuditService, type RecordChange } from './audit-service.ts';
import {
  AccountParams,
  Team,
  TeamCreate,
  TeamMember,
  TeamMembersChange,
  TeamParams,
  TeamUpdate,
} from '../../shared/schemas/helpdesk/index.ts';

const tag = 'Application API';
const security = 'accessToken';
const base = '/api/v1/accounts/:account_id/teams';
const errors = ['unauthorized', 'not_found', 'unprocessable'] as const;
const taken = () =>
  new ParleyError('unprocessable', 'This account has a team of that name already.', {
    problems: [{ field: 'name', message: 'is taken' }],
  });
const missing = (id: number) => new ParleyError('not_found', `No team ${id} in this account.`);
const team = { 200: { description: 'The team.', schema: Team } };
const me = (state: ApplicationState) => (state.caller.kind === 'user' ? state.caller.user.id : 0);

interface Deps {
  sql: Sql;
  now: () => Date;
}

/** What the audit log keeps of a team: its fields as the API shows them, not whether the caller is in it. */
const audited = ({ is_member: _, ...team }: TeamRow): Record<string, unknown> => team;

async function teamOrMissing(sql: Queryable, accountId: number, id: number, caller = 0) {
  const found = await findTeam(sql, accountId, id, caller);
  if (!found) throw missing(id);
  return found;
}

/** Every person of the account reads its teams. */
function addTeamReadingRoutes(routes: ApiRoutes<ApplicationState>, sql: Sql): void {
  routes
    .add(
      {
        method: 'get',
        path: base,
        tag,
        security,
        summary: "The account's teams, by name",
        params: AccountParams,
        responses: { 200: { description: 'The teams.', schema: z.array(Team) } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id);
        ctx.body = await listTeams(sql, params.account_id, me(ctx.state));
      },
    )
    .add(
      {
        method: 'get',
        path: `${base}/:id`,
        tag,
        security,
        summary: 'A team',
        params: TeamParams,
        responses: team,
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id);
        ctx.body = await teamOrMissing(sql, params.account_id, params.id, me(ctx.state));
      },
    );
}

/** Administrators keep the account's teams, each change audited. */
function addTeamCollectionRoutes(routes: ApiRoutes<ApplicationState>, { sql, now }: Deps, record: RecordChange): void {
  addTeamReadingRoutes(routes, sql);
  routes
    .add(
      {
        method: 'post',
        path: base,
        tag,
        security,
        summary: 'Add a team (administrators)',
        params: AccountParams,
        body: TeamCreate,
        responses: team,
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id, 'administrator');
        const { account_id: accountId } = params;
        const id = await sql.transaction(async (tx) => {
          const made = await insertTeam(tx, accountId, body, now());
          if (made === undefined) throw taken();
          const after = audited((await findTeam(tx, accountId, made))!);
          await record(tx, {
            accountId,
            actor: ctx.state.actor,
            type: 'Team',
            id: made,
            action: 'create',
            before: {},
            after,
          });
          return made;
        });
        ctx.body = await teamOrMissing(sql, accountId, id, me(ctx.state));
      },
    )
    .add(
      {
        method: 'patch',
        path: `${base}/:id`,
        tag,
        security,
        summary: 'Change a team (administrators)',
        params: TeamParams,
        body: TeamUpdate,
        responses: team,
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id, 'administrator');
        const { account_id: accountId, id } = params;
        await sql.transaction(async (tx) => {
          const before = audited(await teamOrMissing(tx, accountId, id));
          const done = await updateTeam(tx, accountId, id, body, now());
          if (done === 'taken') throw taken();
          if (!done) throw missing(id);
          const after = audited((await findTeam(tx, accountId, id))!);
          await record(tx, { accountId, actor: ctx.state.actor, type: 'Team', id, action: 'update', before, after });
        });
        ctx.body = await teamOrMissing(sql, accountId, id, me(ctx.state));
      },
    );
  addTeamDeletionRoute(routes, sql, record);
}

/** Administrators delete a team, audited. */
function addTeamDeletionRoute(routes: ApiRoutes<ApplicationState>, sql: Sql, record: RecordChange): void {
  routes.add(
    {
      method: 'delete',
      path: `${base}/:id`,
      tag,
      security,
      summary: 'Delete a team (administrators): its conversations keep their assignee, no team',
      params: TeamParams,
      responses: { 200: { description: 'Done (empty body).' } },
      errors: [...errors],
    },
    async (ctx, { params }) => {
      await requireStanding(sql, ctx.state.caller, params.account_id, 'administrator');
      const { account_id: accountId, id } = params;
      await sql.transaction(async (tx) => {
        const before = audited(await teamOrMissing(tx, accountId, id));
        if (!(await deleteTeam(tx, accountId, id))) throw missing(id);
        await record(tx, {
          accountId,
          actor: ctx.state.actor,
          type: 'Team',
          id,
          action: 'destroy',
          before,
          after: {},
        });
      });
      ctx.body = '';
    },
  );
}

/** The team's members, with their role and availability. */
async function membersOf(sql: Sql, accountId: number, teamId: number): Promise<TeamMember[]> {
  const ids = await teamMemberIds(sql, teamId);
  const roles = new Map((await listAccountUsers(sql, accountId)).map((member) => [member.userId, member.role]));
  const available = new Map((await accountAvailabilities(sql, accountId)).map((row) => [row.user_id, row]));
  const members: TeamMember[] = [];
  for (const id of ids) {
    const user = await findUser(sql, id);
    if (!user) continue;
    const availability_status = available.get(id)?.availability_status ?? 'offline';
    members.push({ ...personShape(user), account_id: accountId, role: roles.get(id) ?? 'agent', availability_status });
  }
  return members;
}

const MEMBER_MOVES = {
  post: {
    summary: 'Add people to the team (administrators)',
    next: (now: number[], ids: number[]) => [...now, ...ids],
  },
  patch: {
    summary: "Make the team's members exactly these (administrators)",
    next: (_: number[], ids: number[]) => ids,
  },
  delete: {
    summary: 'Take people out of the team (administrators)',
    next: (now: number[], ids: number[]) => now.filter((id) => !ids.includes(id)),
  },
} as const;

/** Chatwoot's team_members: read (everyone), add, set and remove (administrators, audited); only people of the account. */
function addTeamMemberRoutes(routes: ApiRoutes<ApplicationState>, { sql }: Deps, record: RecordChange): void {
  const path = `${base}/:id/team_members`;
  const members = { 200: { description: 'The members.', schema: z.array(TeamMember) } };
  routes.add(
    {
      method: 'get',
      path,
      tag,
      security,
      summary: "The team's members",
      params: TeamParams,
      responses: members,
      errors: [...errors],
    },
    async (ctx, { params }) => {
      await requireStanding(sql, ctx.state.caller, params.account_id);
      await teamOrMissing(sql, params.account_id, params.id);
      ctx.body = await membersOf(sql, params.account_id, params.id);
    },
  );
  for (const method of ['post', 'patch', 'delete'] as const) {
    routes.add(
      {
        method,
        path,
        tag,
        security,
        summary: MEMBER_MOVES[method].summary,
        params: TeamParams,
        body: TeamMembersChange,
        responses: members,
        errors: [...errors],
      },
      async (ctx, { params, body }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id, 'administrator');
        await teamOrMissing(sql, params.account_id, params.id);
        const people = new Set((await listAccountUsers(sql, params.account_id)).map((member) => member.userId));
        const strangers = body.user_ids.filter((id) => !people.has(id));
        if (strangers.length)
          throw new ParleyError('unprocessable', `Not people of this account: ${strangers.join(', ')}.`, {
            problems: [{ field: 'user_ids', message: 'only people of this account' }],
          });
        const { account_id: accountId, id } = params;
        await sql.transaction(async (tx) => {
          const before = await teamMemberIds(tx, id);
          const after = [...new Set(MEMBER_MOVES[method].next(before, body.user_ids))].sort((a, b) => a - b);
          await setTeamMembers(tx, id, after);
          const change = { before: { user_ids: before }, after: { user_ids: after } };
          await record(tx, { accountId, actor: ctx.state.actor, type: 'TeamMember', id, action: 'update', ...change });
        });
        ctx.body = await membersOf(sql, params.account_id, params.id);
      },
    );
  }
}

/** Teams (Chatwoot's `teams` and `teams/{id}/team_members`); conversations are assigned to them with `assignments`. */
export function addTeamRoutes(routes: ApiRoutes<ApplicationState>, deps: Deps): void {
  const { record } = createAuditService(deps);
  addTeamCollectionRoutes(routes, deps, record);
  addTeamMemberRoutes(routes, deps, record);
}
