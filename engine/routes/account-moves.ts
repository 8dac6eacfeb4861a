import { ParleyError } from '../../shared/index.ts';
import { AccountMove, AccountMoved } from '../../shared/schemas/engine-account-moves.ts';
import { OperatorAccountParams } from '../../shared/schemas/engine-operator.ts';
import type { ApiRoutes, Logger, Sql } from '../../shared/server/index.ts';
import { moveToOwnAccount } from '../account-moves.ts';

/**
 * `POST /operator/v1/accounts/{id}/moves`: the installation's operator (the BFF) moves the
 * conversations of one of the customers its account serves (a helpdesk account made before
 * accounts had engine accounts of their own) to an account of their own. Guarded by the operator
 * token, as every operator route.
 */
export function addAccountMoveRoute(
  routes: ApiRoutes,
  { sql, now, logger }: { sql: Sql; now: () => Date; logger: Logger },
) {
  routes.add(
    {
      method: 'post',
      path: '/operator/v1/accounts/:id/moves',
      tag: 'Operator',
      security: 'operatorToken',
      summary: "Move conversations of this account to an account of their own, with a copy of the account's set-up",
      description:
        "In one transaction: the first request with a reference makes the account (with this account's limits); every request copies what this account set up that the new one lacks (knowledge, actions and monitors of both environments, sandbox fixtures, agent profile, interviews) and moves the conversations named with their turns, events (at the end of the new account's feed, in order), media, survey answers, calls, interview answers, and monitor findings and waiting checks (under the copied monitors). The new account's keys are in this answer only; a later request with the same reference revokes them and gives new ones.",
      params: OperatorAccountParams,
      body: AccountMove,
      responses: {
        200: { description: 'The new account, its keys (shown once) and its feed cursors.', schema: AccountMoved },
      },
      errors: ['not_found', 'unprocessable', 'invalid_request'],
    },
    async (ctx, { params, body }) => {
      const moved = await moveToOwnAccount(sql, params.id, body, now());
      if (!moved) throw new ParleyError('not_found', `No account ${params.id}.`);
      logger.info(
        {
          audit: 'operator',
          via: 'http',
          action: 'account.moved',
          account: params.id,
          to: moved.account_id,
          moved: moved.moved,
        },
        'operator: account.moved',
      );
      ctx.set('Cache-Control', 'no-store');
      ctx.body = moved;
    },
  );
}
