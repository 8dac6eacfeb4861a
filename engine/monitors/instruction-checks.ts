import type { Logger, Sql } from '../../shared/server/index.ts';
import type { LlmClient } from '../brain/llm-client.ts';
import { appendEvents } from '../store/events.ts';
import { addLlmUsage } from '../store/llm.ts';
import { claimCheck, removeCheck, type ClaimedCheck } from '../store/monitor-checks.ts';
import { insertFinding } from '../store/monitor-scan.ts';
import { excerptOf } from './criteria.ts';

/** A claim on one check: longer than a model's call with its tries again (20 s timeout, three tries). */
const LEASE_MS = 120_000;
/** A check whose model failed this often is given up (logged): a monitor never holds the queue. */
export const CHECK_ATTEMPTS_MAX = 3;

const AUTHORS: Record<ClaimedCheck['role'], string> = {
  customer: 'the customer',
  ai: 'the AI assistant',
  human: 'a person of the support team',
};

/** The question put to the model: the monitor's instruction and the one message, answered yes or no. */
export function instructionQuestion(instruction: string, role: ClaimedCheck['role'], text: string) {
  return [
    {
      role: 'system' as const,
      content:
        'You check messages of customer support conversations for a support team. The team describes what to look for; answer with one word: yes when the message shows it, no when it does not.',
    },
    {
      role: 'user' as const,
      content: `What to look for: ${instruction}\n\nA message from ${AUTHORS[role]}:\n"""\n${text}\n"""\n\nDoes this message show it? Answer yes or no.`,
    },
  ];
}

/** True for an answer that starts with yes (in any case, with or without punctuation). */
export const saysYes = (answer: string) => /^\W*yes\b/i.test(answer.trim());

interface CheckDeps {
  sql: Sql;
  logger: Logger;
  now: () => Date;
  llm: LlmClient;
}

/** Asks the model about one claimed check, then records its answer (a finding and its event on yes) while the claim holds. */
async function answerCheck({ sql, now, llm }: CheckDeps, claimed: ClaimedCheck): Promise<boolean> {
  const owner = { accountId: claimed.accountId, environment: claimed.environment };
  const answer =
    claimed.instruction && claimed.text && claimed.attempts <= CHECK_ATTEMPTS_MAX
      ? await llm.chat(instructionQuestion(claimed.instruction, claimed.role, claimed.text))
      : undefined;
  return sql.transaction(async (tx) => {
    const at = now();
    if (!(await removeCheck(tx, claimed))) return false;
    if (answer && answer.usage.promptTokens + answer.usage.completionTokens > 0)
      await addLlmUsage(tx, owner, answer.usage, at);
    if (!answer || !saysYes(answer.content)) return false;
    const draft = {
      monitorId: claimed.monitorId,
      monitorName: claimed.monitorName,
      ...owner,
      conversationId: claimed.conversationId,
      turn: { id: claimed.turnId, role: claimed.role },
      excerpt: excerptOf(claimed.text),
      severity: claimed.severity,
    };
    if (!(await insertFinding(tx, draft, at))) return false;
    await appendEvents(tx, owner, [findingEvent(draft)], at);
    return true;
  });
}

/** The `monitor.finding` event of a finding. */
export function findingEvent(draft: Parameters<typeof insertFinding>[1]) {
  return {
    type: 'monitor.finding' as const,
    conversationId: draft.conversationId,
    data: {
      monitor_id: draft.monitorId,
      monitor_name: draft.monitorName,
      conversation_id: draft.conversationId,
      message_id: draft.turn.id,
      excerpt: draft.excerpt,
      severity: draft.severity,
    },
  };
}

/**
 * Answers the instruction checks that are waiting, one at a time; gives whether any finding was
 * recorded. A model that fails leaves its check to its lease, to be tried again; after
 * CHECK_ATTEMPTS_MAX tries it is removed without an answer.
 */
export async function answerWaitingChecks(deps: CheckDeps, stopped: () => boolean): Promise<boolean> {
  let found = false;
  while (!stopped()) {
    const at = deps.now();
    const claimed = await claimCheck(deps.sql, at, new Date(at.getTime() + LEASE_MS));
    if (!claimed) break;
    try {
      if (await answerCheck(deps, claimed)) found = true;
    } catch (error) {
      deps.logger.warn(
        { err: error, monitor: claimed.monitorId, turn: claimed.turnId },
        'a monitor instruction could not be checked; tried again when its lease runs out',
      );
      // The model is resting after failures: the others wait for their next pass.
      if (deps.llm.circuitOpen) break;
    }
  }
  return found;
}
