import { ParleyError } from '../../shared/index.ts';
import type { Queryable } from '../../shared/server/index.ts';
import { findAccount, type AccountRecord } from './store/accounts.ts';
import { findUser, type UserRecord } from './store/users.ts';

// The Platform API reaches only what its own token created. Another token's account or user is
// "not found", the same answer as a missing one, so a token cannot learn what others made.

/** The account `id` if the platform token made it; otherwise `not_found`. */
export async function platformAccount(db: Queryable, platformTokenId: number, id: number): Promise<AccountRecord> {
  const account = await findAccount(db, id);
  if (!account || account.platformTokenId !== platformTokenId) throw new ParleyError('not_found', `No account ${id}.`);
  return account;
}

/** The user `id` if the platform token made them; otherwise `not_found`. */
export async function platformUser(db: Queryable, platformTokenId: number, id: number): Promise<UserRecord> {
  const user = await findUser(db, id);
  if (!user || user.platformTokenId !== platformTokenId) throw new ParleyError('not_found', `No user ${id}.`);
  return user;
}
