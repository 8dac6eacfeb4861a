import type { z } from 'zod';
import type { ApiRoutes, Sql } from '../../shared/server/index.ts';
import { ParleyError } from '../../shared/index.ts';
import { requireStanding, type ApplicationState } from './auth.ts';
import { accountAvailabilities, availableCounts, setAvailability } from './store/availabilities.ts';
import {
  AccountParams,
  AccountPresence,
  ProfileAvailability,
  ProfileAvailabilityUpdate,
} from '../../shared/schemas/helpdesk/index.ts';

/** Someone said whether they are available in an account: its open consoles hear of it (`presence:changed`). */
export type OnPresenceChanged = (change: { accountId: number; userId: number; availability: Availability }) => void;
type Availability = z.infer<typeof ProfileAvailabilityUpdate>['availability'];

const tag = 'Application API';
const security = 'accessToken';
const errors = ['unauthorized', 'not_found', 'unprocessable'] as const;

/**
 * Who is available (Chatwoot's availability: online, busy, offline), kept in the store so that every
 * node knows it: a person says it of themselves for one of their accounts (`PATCH /api/v1/profile`),
 * and everyone of the account reads who is online, per person and per inbox. The widget's header and
 * the AI's handover read it too (bff/helpdesk/inbox-availability.ts).
 */
export function addPresenceRoutes(
  routes: ApiRoutes<ApplicationState>,
  { sql, now, onPresenceChanged }: { sql: Sql; now: () => Date; onPresenceChanged: OnPresenceChanged },
) {
  routes
    .add(
      {
        method: 'patch',
        path: '/api/v1/profile',
        tag,
        security,
        summary: 'Say whether you are available in one of your accounts (online, busy or offline)',
        description: 'Only people have an availability; a person who never said is offline.',
        body: ProfileAvailabilityUpdate,
        responses: { 200: { description: 'Your availability there.', schema: ProfileAvailability } },
        errors: [...errors],
      },
      async (ctx, { body }) => {
        await requireStanding(sql, ctx.state.caller, body.account_id);
        const { caller } = ctx.state;
        if (caller.kind !== 'user') throw new ParleyError('unauthorized', 'Only people have an availability.');
        await setAvailability(sql, body.account_id, caller.user.id, body.availability, now());
        onPresenceChanged({ accountId: body.account_id, userId: caller.user.id, availability: body.availability });
        ctx.body = { account_id: body.account_id, user_id: caller.user.id, availability: body.availability };
      },
    )
    .add(
      {
        method: 'get',
        path: '/api/v1/accounts/:account_id/presence',
        tag,
        security,
        summary: 'Who of the account is available, and per inbox how many who answer it are online',
        params: AccountParams,
        responses: { 200: { description: 'The people and the inboxes.', schema: AccountPresence } },
        errors: [...errors],
      },
      async (ctx, { params }) => {
        await requireStanding(sql, ctx.state.caller, params.account_id);
        ctx.body = {
          payload: await accountAvailabilities(sql, params.account_id),
          inboxes: await availableCounts(sql, params.account_id),
        };
      },
    );
}
