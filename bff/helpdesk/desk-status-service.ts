/**
 * Who answers a conversation and in which status it is, as people change them: assign it, give it
 * back to the AI, and Chatwoot's toggle_status (resolve, snooze, hand over or back, reopen).
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { AssignmentCreate, StatusChange } from '../../shared/schemas/helpdesk/index.ts';
import type { ConversationService } from '../widget/conversation-service.ts';
import { UNTIL_CUSTOMER_WRITES, updateConversation, type ConversationRecord } from '../store/conversations.ts';
import type { Role } from './store/accounts.ts';
import { setAssignee, setTeam, type DeskConversation } from './store/desk-conversations.ts';
import { findTeam } from './store/teams.ts';
import { checkAssignee } from './desk-assignees.ts';
import type { Caller } from './auth.ts';
import type { DeskCommit } from './desk-commit.ts';
import type { DeskConversationAccess } from './desk-conversation-access.ts';
import type { DeskEngineMoves } from './desk-engine-moves.ts';
import { reopenForPeople } from './desk-reopening.ts';
import { deskConversationShape as conversationShape } from './shapes.ts';

export interface DeskStatusServiceDeps {
  sql: Sql;
  now: () => Date;
  conversations: ConversationService;
  access: DeskConversationAccess;
  commit: DeskCommit;
  moves: DeskEngineMoves;
}

/** A person's snooze: until a time, until the customer writes, or (null) ended now. */
async function snooze(
  { now, commit }: DeskStatusServiceDeps,
  conversation: ConversationRecord,
  until: Date | typeof UNTIL_CUSTOMER_WRITES | null,
): Promise<void> {
  const at = now();
  await commit(conversation, async (tx) => {
    await updateConversation(tx, conversation.id, { snoozedUntil: until }, at);
    return {
      value: undefined,
      change: { type: 'snoozed', until: until === UNTIL_CUSTOMER_WRITES ? null : (until ?? at) },
    };
  });
}

/** Back to the AI (Chatwoot's `pending`): handed back when people have it, and no longer snoozed. */
async function toPending(deps: DeskStatusServiceDeps, conversation: DeskConversation): Promise<void> {
  if (conversation.record.handledBy === 'human') await deps.moves.handBack(conversation.record);
  if (conversation.status === 'snoozed') await snooze(deps, conversation.record, null);
}

/** The status a person asked for, reached from the one the conversation has (see setStatus). */
async function changeStatus(
  deps: DeskStatusServiceDeps,
  conversation: DeskConversation,
  change: z.infer<typeof StatusChange>,
): Promise<void> {
  const { record: current, status } = conversation;
  const wanted = change.status ?? (status === 'resolved' ? 'open' : 'resolved');
  if (status === 'resolved' && (wanted === 'pending' || wanted === 'snoozed')) {
    throw new ParleyError(
      'invalid_state',
      `A resolved conversation is not made ${wanted}; reopen it with status open (people answer it then).`,
    );
  }
  switch (wanted) {
    case 'resolved':
      if (status === 'resolved') break;
      await deps.conversations.close(
        {
          inboxId: current.inboxId,
          customerRef: current.customerRef,
          environment: current.environment,
          verified: false,
        },
        current.uuid,
      );
      break;
    case 'pending':
      await toPending(deps, conversation);
      break;
    case 'snoozed':
      await snooze(
        deps,
        current,
        change.snoozed_until == null ? UNTIL_CUSTOMER_WRITES : new Date(change.snoozed_until * 1000),
      );
      break;
    case 'open':
      if (status === 'resolved') {
        await reopenForPeople(deps, current);
        break;
      }
      if (current.handledBy === 'ai')
        await deps.moves.handOver(current, 'a person took the conversation from the helpdesk', randomUUID());
      if (status === 'snoozed') await snooze(deps, current, null);
      break;
  }
}

export function createDeskStatusService(deps: DeskStatusServiceDeps) {
  const { sql, access, commit } = deps;
  return {
    /**
     * Chatwoot's assignments: to a person (who must answer the conversation's inbox), to a team of
     * the account, or both; null takes either away, and what is not given stays.
     */
    async assign(
      accountId: number,
      caller: Caller,
      standing: Role | 'bot',
      id: number,
      body: z.infer<typeof AssignmentCreate>,
    ) {
      const conversation = await access.find(accountId, caller, standing, id);
      const assigneeId = body.assignee_id === undefined ? conversation.assigneeId : body.assignee_id;
      const teamId = body.team_id === undefined ? (conversation.team?.id ?? null) : body.team_id;
      if (body.assignee_id) await checkAssignee(sql, conversation, body.assignee_id);
      if (body.team_id && !(await findTeam(sql, accountId, body.team_id))) {
        throw new ParleyError('unprocessable', `Team ${body.team_id} is not a team of this account.`, {
          problems: [{ field: 'team_id', message: 'not a team of this account' }],
        });
      }
      await commit(conversation.record, async (tx) => {
        await setAssignee(tx, conversation.record.id, assigneeId);
        await setTeam(tx, conversation.record.id, teamId);
        return { value: undefined, change: { type: 'assigned', assigneeId } };
      });
      return access.reread(conversation);
    },

    async handback(accountId: number, caller: Caller, standing: Role | 'bot', id: number) {
      const conversation = await access.find(accountId, caller, standing, id);
      if (conversation.record.status === 'resolved' || conversation.record.handledBy !== 'human') {
        throw new ParleyError('invalid_state', 'Only an open conversation that people answer can go back to the AI.');
      }
      await toPending(deps, conversation);
      return access.reread(conversation);
    },

    /**
     * Chatwoot's toggle_status: `resolved` closes it as the customer's close does (a survey question
     * when the inbox asks, the engine told through the outbox); `pending` gives it back to the AI;
     * `snoozed` snoozes it; `open` hands it to people, ends a snooze, or reopens a resolved one.
     * Asking for the status it has changes nothing; without a status it is resolved, or reopened.
     */
    async setStatus(
      accountId: number,
      caller: Caller,
      standing: Role | 'bot',
      id: number,
      change: z.infer<typeof StatusChange>,
    ) {
      const conversation = await access.find(accountId, caller, standing, id);
      await changeStatus(deps, conversation, change);
      return access.reread(conversation);
    },
  };
}
