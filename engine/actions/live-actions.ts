import { ParleyError, type ActionResultRequest, type EngineEvent } from '../../shared/index.ts';
import {
  checkEndpointHost,
  checkEndpointUrl,
  type AttemptResult,
  type Logger,
  type SecretBox,
  type SendWebhook,
  type Sql,
  type TargetPolicy,
} from '../../shared/server/index.ts';
import { isFailure } from '../brain/actions.ts';
import {
  claimLiveCall,
  findActionTarget,
  findRequestEvent,
  lapsedLiveCalls,
  settlePendingRequest,
  type LiveCall,
} from '../store/actions.ts';
import type { Caller } from '../store/environment.ts';

/**
 * Live customers' action requests, run by the action's URL (SPEC "Verifying requests sent by the
 * service": action requests are signed as webhooks are). The conversation's move records the
 * request with `handled_by: "url"` and commits; only then is the URL called (no lock or connection
 * is held while it answers), and its answer is recorded as the caller's `action-results` would be.
 *
 * Each call is leased in the database (`action_requests.call_until`): a process that stopped
 * before it called, or while it waited, lets the lease lapse, and the next webhook worker pass of
 * any process calls it again. So a URL is called at least once per request; receivers
 * de-duplicate by `X-Service-Delivery-Id`, the request's id. A request older than
 * GIVE_UP_MS by then is not called any more: it fails, and the AI says so.
 */

/** A call's lease: outlasts the 10-second answer time with room to record the result. */
const LEASE_MS = 60_000;
/** A request not called within this time is given up (the customer has waited long enough). */
const GIVE_UP_MS = 10 * 60_000;
/** The most bytes of an answer that are read: a result is a small JSON object. */
export const ACTION_ANSWER_LIMIT = 64 * 1024;
/** Lapsed calls one worker pass takes up. */
const SWEEP_BATCH = 20;

/** The result of a call that did not give one: the AI tells the customer it failed, and why in plain words. */
const failed = (error: string) => ({ status: 'failed', error });

export interface LiveActionsDeps {
  sql: Sql;
  logger: Logger;
  now: () => Date;
  /** The webhook sender, keeping the answer (`answerLimit`): the same signing and address checks. */
  send: SendWebhook;
  policy: TargetPolicy;
  secrets: Pick<SecretBox, 'open'>;
  /** Records a result as `POST /v1/conversations/{id}/action-results` does. */
  record: (caller: Caller, conversationId: string, request: ActionResultRequest) => Promise<unknown>;
  /** Told after a result was recorded (the webhook worker sends its events at once). */
  recorded?: () => void;
}

/** What a call needs: the store, the log, the clock, the sender and its checks, the secrets. */
type CallDeps = Pick<LiveActionsDeps, 'sql' | 'logger' | 'now' | 'send' | 'policy' | 'secrets'>;

/** Logs why a call gave no result, and gives the failed result the AI tells the customer. */
function gaveNoResult(logger: Logger, call: LiveCall, error: string, detail: Record<string, unknown>) {
  logger.warn({ actionRequest: call.id, action: call.action, ...detail }, `an action URL gave no result: ${error}`);
  return failed(error);
}

/** The event as the feed and webhooks give it, with its environment, and the customer the action is for. */
function actionRequestBody(call: LiveCall, stored: { id: string; created_at: string } | undefined): string {
  return JSON.stringify({
    id: stored?.id ?? call.id,
    type: 'conversation.action_request',
    created_at: stored?.created_at ?? call.created_at.toISOString(),
    conversation_id: call.conversation_id,
    data: {
      type: 'action_request',
      action_request_id: call.id,
      action: call.action,
      inputs: call.inputs,
      handled_by: 'url',
    },
    environment: call.environment,
    customer_ref: call.customer_ref,
  });
}

/** The result in the URL's answer: a JSON object, or a failure saying why there is none. */
function readAnswer(logger: Logger, call: LiveCall, sent: AttemptResult): Record<string, unknown> {
  if (sent.status === null) {
    const timedOut = sent.error?.startsWith('no answer within') ?? false;
    return gaveNoResult(
      logger,
      call,
      timedOut ? 'the service that runs it did not answer in time' : 'the service that runs it could not be reached',
      { error: sent.error },
    );
  }
  if (sent.error)
    return gaveNoResult(
      logger,
      call,
      sent.status < 300
        ? 'the service that runs it gave an answer that could not be read'
        : 'the service that runs it answered with an error',
      { status: sent.status, error: sent.error },
    );
  let answer: unknown;
  try {
    // PostgreSQL's jsonb holds no U+0000; such an answer is not a result.
    answer = sent.answer && !/\\u0000/i.test(sent.answer) ? JSON.parse(sent.answer) : undefined;
  } catch {
    answer = undefined;
  }
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) {
    return gaveNoResult(logger, call, 'the service that runs it gave an answer that could not be read', {
      status: sent.status,
      answer: sent.answer?.slice(0, 200),
    });
  }
  return answer as Record<string, unknown>;
}

/** Posts the request to its action's URL and reads the answer as a result. */
async function resultOf(
  { sql, logger, now, send, policy, secrets }: CallDeps,
  call: LiveCall,
  event: { id: string; created_at: string } | undefined,
): Promise<Record<string, unknown>> {
  const problem = (error: string, detail: Record<string, unknown>) => gaveNoResult(logger, call, error, detail);
  if (now().getTime() - call.created_at.getTime() > GIVE_UP_MS) return problem('it could not be started in time', {});
  const target = await findActionTarget(sql, call.account_id, call.action);
  if (!target) return problem('the action is no longer set up to run', {});
  try {
    // Checked again now: the rules (allowed private origins) may have changed since it was saved.
    checkEndpointHost(checkEndpointUrl(target.url, 'live', policy), policy);
  } catch (error) {
    return problem('the service that runs it could not be reached', { refused: (error as Error).message });
  }
  const stored =
    event ??
    (await findRequestEvent(sql, call).then(
      (found) => found && { id: found.id, created_at: found.created_at.toISOString() },
    ));
  const sent = await send(
    {
      id: call.id,
      endpointId: call.action,
      eventId: stored?.id ?? call.id,
      eventType: 'conversation.action_request',
      body: actionRequestBody(call, stored),
      roundAttempts: 0,
      url: target.url,
      secret: secrets.open(target.secret),
    },
    now().getTime(),
  );
  return readAnswer(logger, call, sent);
}

/** Calls the URL of one request (unless another process holds it or it has its result) and records the answer. */
async function run(
  deps: LiveActionsDeps,
  requestId: string,
  event?: { id: string; created_at: string },
): Promise<void> {
  const { sql, now, record, recorded } = deps;
  const at = now();
  const call = await claimLiveCall(sql, requestId, at, new Date(at.getTime() + LEASE_MS));
  if (!call) return;
  const result = await resultOf(deps, call, event);
  const caller: Caller = {
    accountId: call.account_id,
    environment: call.environment,
    keyId: 'engine',
    keyPrefix: 'engine',
    requestsPerMinute: 0,
  };
  try {
    await record(caller, call.conversation_id, { action_request_id: call.id, result });
  } catch (error) {
    if (!(error instanceof ParleyError)) throw error;
    // The conversation was closed meanwhile (or a result came first): the request alone keeps it.
    await settlePendingRequest(sql, call.id, isFailure(result) ? 'failed' : 'succeeded', result, now());
  }
  recorded?.();
}

export function createLiveActions(deps: LiveActionsDeps) {
  const { sql, logger, now } = deps;
  const running = new Set<Promise<void>>();

  /** Runs `work` in the background; a failure is logged (its lease lapses and another pass tries again). */
  function track(requestId: string, work: Promise<void>): void {
    const promise = work
      .catch((error: unknown) => logger.error({ err: error, actionRequest: requestId }, 'calling an action URL failed'))
      .finally(() => running.delete(promise));
    running.add(promise);
  }

  return {
    /** After a move committed: calls the URL of each action request it made for one (`handled_by: "url"`). */
    requested(events: readonly EngineEvent[]): void {
      for (const event of events) {
        if (event.type === 'conversation.action_request' && event.data.handled_by === 'url') {
          track(
            event.data.action_request_id,
            run(deps, event.data.action_request_id, { id: event.id, created_at: event.created_at }),
          );
        }
      }
    },

    /** Calls what no process is calling: requests left by a process that stopped (run by the webhook worker's passes). */
    async sweep(): Promise<void> {
      for (const id of await lapsedLiveCalls(sql, now(), SWEEP_BATCH)) track(id, run(deps, id));
    },

    /** Resolves when every call started so far has been recorded (for a clean stop, and tests). */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}

export type LiveActions = ReturnType<typeof createLiveActions>;
