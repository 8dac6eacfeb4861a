import type { Logger, Sql } from '../../shared/server/index.ts';
import type { LlmClient } from '../brain/llm-client.ts';
import { appendEvents, type EventDraft } from '../store/events.ts';
import { nextCheckLeaseEnd, queueCheck } from '../store/monitor-checks.ts';
import {
  advanceScan,
  claimConversation,
  conversationsToRead,
  insertFinding,
  moveCursor,
  type ConversationToRead,
} from '../store/monitor-scan.ts';
import { listMonitors } from '../store/monitors.ts';
import { findByWords, ROLES_OF_SCOPE } from './criteria.ts';
import { answerWaitingChecks, findingEvent } from './instruction-checks.ts';

/** Conversations looked for at a time, and turns of one conversation read in one transaction. */
const CONVERSATIONS_BATCH = 50;
const TURNS_BATCH = 200;
/** A pass also runs this often by itself: turns written by another engine process are read then. */
const SWEEP_EVERY_MS = 30_000;

export interface MonitorWorkerDeps {
  sql: Sql;
  logger: Logger;
  now: () => Date;
  /** The engine's model: without it, instructions are not checked (such monitors cannot be made then). */
  llm?: LlmClient | undefined;
  /** Events were recorded (the webhook worker sends them now). */
  onEvents?: () => void;
}

export type MonitorWorker = ReturnType<typeof createMonitorWorker>;

/**
 * Reads one conversation's unread turns with its account's monitors, in one transaction: findings
 * of words and patterns are recorded with their events, instructions queued for the LLM, and the
 * conversation's cursor moved past the turns. Gives whether it was read (another process may hold
 * it) and whether a finding was recorded.
 */
async function readConversation(
  { sql, now, llm }: MonitorWorkerDeps,
  conversationId: string,
): Promise<{ read: boolean; found: boolean }> {
  return sql.transaction(async (tx) => {
    const claimed = await claimConversation(tx, conversationId, TURNS_BATCH);
    if (!claimed?.lastPosition) return { read: false, found: false };
    const at = now();
    const owner = { accountId: claimed.accountId, environment: claimed.environment };
    const monitors = await listMonitors(tx, owner);
    const drafts: EventDraft[] = [];
    for (const { turn, monitor } of pairs(claimed, monitors)) {
      const excerpt = findByWords(monitor.criteria, turn.text);
      const common = { monitorId: monitor.id, monitorName: monitor.name, ...owner, conversationId, turn };
      if (excerpt !== undefined) {
        const draft = { ...common, excerpt, severity: monitor.severity };
        if (await insertFinding(tx, draft, at)) drafts.push(findingEvent(draft));
      } else if (monitor.criteria.instruction && llm && turn.text) {
        await queueCheck(tx, { monitorId: monitor.id, turnId: turn.id, ...owner, conversationId }, at);
      }
    }
    await moveCursor(tx, conversationId, claimed.lastPosition);
    // Last, so the feed's lock is held only for the insert and the commit.
    await appendEvents(tx, owner, drafts, at);
    return { read: true, found: drafts.length > 0 };
  });
}

type ReadTurn = { id: string; role: 'customer' | 'ai' | 'human'; text: string };

/** Each turn with each monitor that reads it: its scope names the turn's author, and the monitor was there when it was written. */
function* pairs(
  { turns }: ConversationToRead,
  monitors: Awaited<ReturnType<typeof listMonitors>>,
): Generator<{ turn: ReadTurn; monitor: (typeof monitors)[number] }> {
  for (const turn of turns) {
    if (turn.role === 'system') continue;
    const read: ReadTurn = { id: turn.id, role: turn.role, text: turn.text };
    for (const monitor of monitors)
      if (ROLES_OF_SCOPE[monitor.scope].includes(turn.role) && turn.created_at >= monitor.createdAt)
        yield { turn: read, monitor };
  }
}

/** Reads every conversation with unread turns, a batch at a time; gives whether any monitor found something. */
async function readConversations(deps: MonitorWorkerDeps, stopped: () => boolean): Promise<boolean> {
  const { sql, logger, now } = deps;
  let found = false;
  for (;;) {
    const waiting = await conversationsToRead(sql, CONVERSATIONS_BATCH);
    let read = 0;
    for (const id of waiting) {
      if (stopped()) return found;
      try {
        const outcome = await readConversation(deps, id);
        if (outcome.found) found = true;
        if (outcome.read) read += 1;
      } catch (error) {
        logger.error({ err: error, conversation: id }, 'monitors could not read a conversation');
      }
    }
    // Nothing more, or only conversations another process holds or that failed: the next pass tries them.
    if (waiting.length < CONVERSATIONS_BATCH || read === 0) break;
  }
  await advanceScan(sql, now());
  return found;
}

/**
 * Runs the account's monitors on every message (the customer's, the AI's, people's) after it was
 * written, never in the request that wrote it: a pass reads the conversations with unread turns
 * (engine/store/monitor-scan.ts), each in its own transaction, then asks the LLM the instruction
 * checks that wait (engine/monitors/instruction-checks.ts). What it reads and what it records commit
 * together, and each monitor finds a message at most once, so a pass run again after a restart, or
 * by another engine process, never doubles a finding. A pass runs after each change (`nudge`), at
 * start, and every SWEEP_EVERY_MS.
 */
export function createMonitorWorker(deps: MonitorWorkerDeps) {
  const { sql, logger, now, llm, onEvents } = deps;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let recheck: NodeJS.Timeout | undefined;
  const sweep = setInterval(() => nudge(), SWEEP_EVERY_MS);
  sweep.unref();

  async function pass(): Promise<void> {
    const fromWords = await readConversations(deps, () => stopped);
    const fromInstructions = llm ? await answerWaitingChecks({ sql, logger, now, llm }, () => stopped) : false;
    if (fromWords || fromInstructions) onEvents?.();
    // Checks another process holds (or that failed): take them up again when their lease runs out.
    const leaseEnd = llm ? await nextCheckLeaseEnd(sql, now()) : undefined;
    if (leaseEnd && !recheck && !stopped) {
      recheck = setTimeout(
        () => {
          recheck = undefined;
          nudge();
        },
        Math.max(0, leaseEnd.getTime() - now().getTime()) + 1_000,
      );
      recheck.unref();
    }
  }

  function nudge(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((error: unknown) => logger.error({ err: error }, 'a pass of the monitors failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          nudge();
        }
      });
  }

  return {
    /** Reads what is waiting, now or right after the pass under way. */
    nudge,
    /** Resolves when no pass is under way or asked for. */
    async settled(): Promise<void> {
      while (running) await running;
    },
    /** Runs a whole pass now (after the one under way) and resolves when it has ended: for tests and scripts. */
    async drain(): Promise<void> {
      while (running) await running;
      nudge();
      while (running) await running;
    },
    /** Takes no more work; resolves when the pass under way has ended. */
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(sweep);
      if (recheck) clearTimeout(recheck);
      recheck = undefined;
      while (running) await running;
    },
  };
}
