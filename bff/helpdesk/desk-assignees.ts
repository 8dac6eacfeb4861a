/** Who a conversation may be assigned to: a person of its account (an agent sees it once they answer its inbox). */
import { ParleyError } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import { roleIn } from './store/accounts.ts';
import type { DeskConversation } from './store/desk-conversations.ts';

export async function checkAssignee(db: Queryable, conversation: DeskConversation, userId: number): Promise<void> {
  if (!(await roleIn(db, conversation.accountId, userId)))
    throw new ParleyError('unprocessable', `User ${userId} is not a person of this account.`, {
      problems: [{ field: 'assignee_id', message: 'not a person of this account' }],
    });
}
