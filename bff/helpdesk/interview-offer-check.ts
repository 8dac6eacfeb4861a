import { ParleyError, type InterviewOffer } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { ENVIRONMENTS } from '../../shared/environment.ts';
import { EngineCallError } from '../engine-link/engine-client.ts';
import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import { engineFailure } from './desk-engine-moves.ts';
import type { InboxService } from './inbox-service.ts';
import { findAccountInbox } from './store/account-inboxes.ts';

/** Whether the engine account serving the inbox holds the interview in `environment` (a missing engine key: no). */
async function heldIn(
  engines: Pick<EngineAccounts, 'forInbox'>,
  inboxId: string,
  environment: (typeof ENVIRONMENTS)[number],
  interviewId: string,
): Promise<boolean> {
  try {
    await (await engines.forInbox(inboxId, environment)).interview(interviewId);
    return true;
  } catch (error) {
    if (error instanceof EngineCallError && error.code === 'not_found') return false;
    if (error instanceof ParleyError && error.code === 'not_configured') return false;
    return engineFailure(error);
  }
}

/**
 * An inbox's interview offer is checked against the engine when it is set (issue 29): the
 * interview must be one of the engine account that serves the inbox, in its sandbox or live
 * environment (a shop tries an interview with its test key first; the widget opens it in the
 * customer's environment, and a customer of the other one is told it is not offered). An
 * unknown or deleted interview is 422 `unknown_interview` and nothing changes; while the engine
 * cannot be reached, 503 `upstream_unavailable`. Removing the offer (null) asks nothing.
 */
export function withInterviewOfferCheck(
  inboxes: InboxService,
  { sql, engines }: { sql: Sql; engines: Pick<EngineAccounts, 'forInbox'> },
): InboxService {
  async function check(accountId: number, displayId: number, offer: InterviewOffer): Promise<void> {
    const inbox = await findAccountInbox(sql, accountId, displayId);
    if (!inbox) return; // The update itself answers 404.
    for (const environment of ENVIRONMENTS)
      if (await heldIn(engines, inbox.id, environment, offer.interview_id)) return;
    throw new ParleyError('unknown_interview', `The AI engine has no interview ${offer.interview_id} for this inbox.`, {
      problems: [{ field: 'interview_offer.interview_id', message: 'no such interview at the AI engine' }],
    });
  }
  return {
    ...inboxes,
    async update(accountId, actor, displayId, body) {
      if (body.interview_offer) await check(accountId, displayId, body.interview_offer);
      return inboxes.update(accountId, actor, displayId, body);
    },
  };
}
