/** A resolved conversation opened again by people, on a new engine conversation handed over to them at once. */
import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { givenCustomerRef } from '../widget/customer-refs.ts';
import { findConversationById, reopenConversation, type ConversationRecord } from '../store/conversations.ts';
import type { DeskCommit } from './desk-commit.ts';
import { engineFailure, unlessMadeAlready, type DeskEngineMoves } from './desk-engine-moves.ts';

export interface DeskReopeningDeps {
  sql: Sql;
  now: () => Date;
  commit: DeskCommit;
  moves: DeskEngineMoves;
}

/**
 * Opens a resolved conversation again, for people. Its engine conversation has ended for good
 * (closed there now if the resolve has not reached it yet), so a new one is opened and handed
 * over at once; only then is the conversation changed here, in one transaction. The new one's
 * key is the old one's id: fresh for each reopening, the same for a retry, which goes on with
 * the conversation the first attempt opened.
 */
export async function reopenForPeople(
  { sql, now, commit, moves }: DeskReopeningDeps,
  conversation: ConversationRecord,
): Promise<void> {
  const { engineOf, recordEvents } = moves;
  const from = conversation.engineConversationId;
  if (from && !conversation.engineClosed) {
    // The relay's own key: whichever of us comes second gets the same answer.
    const closed = await (
      await engineOf(conversation)
    )
      .close(from, `close-${conversation.uuid}`)
      .catch(unlessMadeAlready);
    if (closed) await recordEvents(conversation, closed.events);
  }
  const opened = await (
    await engineOf(conversation)
  )
    .openConversation(givenCustomerRef(conversation.customerRef), `reopen-${conversation.uuid}-${from ?? 'none'}`)
    .catch(engineFailure);
  const handover = await (
    await engineOf(conversation)
  )
    .handover(
      opened.id,
      'a person reopened the conversation from the helpdesk',
      `handover-${conversation.uuid}-${opened.id}`,
    )
    .catch(unlessMadeAlready);
  const outcome = await commit(conversation, async (tx) => ({
    value: await reopenConversation(tx, conversation.id, from, opened.id, now()),
    change: { type: 'reopened' },
  }));
  if (outcome === 'relay_busy')
    throw new ParleyError(
      'upstream_unavailable',
      'The close of this conversation is still on its way to the AI engine; try again in a moment.',
    );
  if (outcome === 'changed') {
    // The same reopening sent twice reaches the same engine conversation: done already.
    if ((await findConversationById(sql, conversation.id))?.engineConversationId === opened.id) return;
    throw new ParleyError('invalid_state', 'The conversation changed meanwhile; read it again.');
  }
  Object.assign(conversation, {
    status: 'open',
    handledBy: 'human',
    engineConversationId: opened.id,
    engineClosed: false,
    closeRequested: false,
  });
  await recordEvents(conversation, handover?.events ?? []);
}
