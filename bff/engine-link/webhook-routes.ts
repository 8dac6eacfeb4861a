import type { Context } from 'koa';
import { ParleyError, readEvents, verifyWebhook } from '../../shared/index.ts';
import { readRawBody, type ApiRoutes, type Sql } from '../../shared/server/index.ts';
import { z } from 'zod';
import type { EngineAccounts, EngineScope } from './engine-accounts.ts';
import type { EngineEventRecorder } from './engine-events.ts';
import { findConversationByEngineId } from '../store/conversations.ts';
import { confirmByWebhook } from '../store/events-seen.ts';

export interface EngineWebhookDeps {
  sql: Sql;
  recorder: EngineEventRecorder;
  engines: Pick<EngineAccounts, 'scopeOfInbox' | 'webhookSecrets'>;
  /** The installation's endpoints' secrets (ENGINE_WEBHOOK_SECRET: one per environment), for `POST /v1/engine-webhooks`. */
  secrets: readonly string[];
  now: () => Date;
  onWebhook?: () => void;
}

const Received = z.object({ received: z.boolean() });
const AccountParams = z.strictObject({ account: z.coerce.number().int().min(1).max(2_147_483_647) });

/** Takes one pushed event for the engine account `scope` (null: the installation's), signed with one of `signers`. */
async function receiveEngineWebhook(
  { sql, recorder, engines, now, onWebhook }: EngineWebhookDeps,
  ctx: Context,
  scope: EngineScope,
  signers: readonly string[],
): Promise<void> {
  const raw = (await readRawBody(ctx, 256 * 1024)).toString('utf8');
  // One secret per engine endpoint (one endpoint per environment): any of them may have signed.
  let problem: string | undefined = 'no_secret';
  for (const secret of signers) {
    problem = await verifyWebhook(
      secret,
      ctx.get('x-service-timestamp'),
      ctx.get('x-service-signature'),
      raw,
      now().getTime(),
    );
    if (!problem) break;
  }
  if (problem)
    throw new ParleyError('unauthorized', `The webhook signature is not valid (${problem.replace('_', ' ')}).`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ParleyError('invalid_json', 'The webhook body is not valid JSON.');
  }
  onWebhook?.();
  const [event] = readEvents([parsed]);
  // The body names the environment of the endpoint that sent it: an event is taken only for a conversation of that environment.
  const environment = (parsed as { environment?: unknown }).environment;
  // Usually the event came first in the engine's answer: then one statement and done.
  if (event?.conversation_id && !(await confirmByWebhook(sql, event.id, now()))) {
    const conversation = await findConversationByEngineId(sql, event.conversation_id);
    if (
      conversation &&
      conversation.environment === environment &&
      (await engines.scopeOfInbox(conversation.inboxId)) === scope
    ) {
      await recorder.record(conversation, [event], { byWebhook: true });
    }
  } else if (event && !event.conversation_id && (environment === 'sandbox' || environment === 'live')) {
    // An event of the account (a forgotten customer): for the environment the body names.
    await recorder.recordAccountEvent(scope, environment, event, { byWebhook: true });
  }
  ctx.body = { received: true };
}

/**
 * `POST /v1/engine-webhooks` (the installation's engine account) and
 * `POST /v1/engine-webhooks/{account}` (a helpdesk account's own): events the engine pushes,
 * signed with the endpoint's secret. The signature is checked over the raw body with a 300-second
 * tolerance before anything is parsed, with the secrets of that path's engine account only; an event
 * is recorded only into a conversation that engine account serves (never another account's), once
 * whichever way it came (the answer, the feed or a webhook). Events of types this BFF does not know,
 * or of no conversation that it has no use for (`ping`, `report.ready`), are taken and ignored (SPEC
 * Events rule 9), so that the engine does not send them again; `customer.forgotten` erases that
 * customer among the engine account's own.
 */
export function addEngineWebhookRoutes(routes: ApiRoutes, deps: EngineWebhookDeps): void {
  const { engines, secrets } = deps;
  const description =
    'Headers X-Service-Timestamp and X-Service-Signature (sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">).';
  const responses = {
    200: {
      description: 'Received (also for an event seen before, or of a conversation this BFF does not know).',
      schema: Received,
    },
  };
  routes
    .add(
      {
        method: 'post',
        path: '/v1/engine-webhooks',
        tag: 'Engine',
        summary: "Receive an event of the installation's engine account (signed)",
        description,
        responses,
        errors: ['unauthorized', 'not_configured'],
      },
      async (ctx) => {
        if (secrets.length === 0)
          throw new ParleyError('not_configured', 'This BFF has no ENGINE_WEBHOOK_SECRET, so it takes no webhooks.');
        await receiveEngineWebhook(deps, ctx, null, secrets);
      },
    )
    .add(
      {
        method: 'post',
        path: '/v1/engine-webhooks/:account',
        tag: 'Engine',
        summary:
          "Receive an event of a helpdesk account's own engine account (signed with that account's endpoint secret)",
        description,
        params: AccountParams,
        responses,
        errors: ['unauthorized'],
      },
      async (ctx, { params }) => {
        await receiveEngineWebhook(deps, ctx, params.account, await engines.webhookSecrets(params.account));
      },
    );
}
