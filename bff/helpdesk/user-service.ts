import type { z } from 'zod';
import { ParleyError } from '../../shared/index.ts';
import type { Queryable, Sql } from '../../shared/server/index.ts';
import { platformUser } from './platform-ownership.ts';
import type { UserCreate, UserUpdate } from '../../shared/schemas/helpdesk/index.ts';
import { userShape } from './shapes.ts';
import { accountsOf } from './store/accounts.ts';
import { endOtherSessions, hashPassword, issueAccessToken, type OnAccessChanged } from './store/credentials.ts';
import { deleteUser, insertUser, updateUser, type UserRecord } from './store/users.ts';

/** A person as the APIs show them: with the accounts they work in. */
export const userView = async (db: Queryable, user: UserRecord) => userShape(user, await accountsOf(db, user.id));

/**
 * People sign in by e-mail, so an address is one person's in the whole installation, and a taken
 * one must be refused. The refusal names no one and reads the same whichever platform app made
 * that person, so a second app learns nothing of another app's people from it (issue 33) beyond
 * that the address cannot be used; guessing addresses is held to the platform app's rate limit.
 */
const emailTaken = () =>
  new ParleyError('unprocessable', 'This e-mail address cannot be used for a user.', {
    problems: [{ field: 'email', message: 'cannot be used' }],
  });

/** The people of the installation (Platform API): agents and administrators of its accounts. */
export function createUserService({
  sql,
  now,
  onAccessChanged,
}: {
  sql: Sql;
  now: () => Date;
  onAccessChanged: OnAccessChanged;
}) {
  return {
    /** Only this answer carries the person's access token. */
    async createUser(platformTokenId: number, body: z.infer<typeof UserCreate>) {
      return sql.transaction(async (tx) => {
        const passwordHash = body.password ? await hashPassword(body.password) : undefined;
        const fields = {
          name: body.name,
          email: body.email,
          displayName: body.display_name,
          passwordHash,
          customAttributes: body.custom_attributes,
        };
        const user = await insertUser(tx, fields, platformTokenId, now());
        if (!user) throw emailTaken();
        const token = await issueAccessToken(tx, { kind: 'user', id: user.id }, now());
        return userShape(user, [], token);
      });
    },
    async getUser(platformTokenId: number, id: number) {
      return userView(sql, await platformUser(sql, platformTokenId, id));
    },
    async patchUser(platformTokenId: number, id: number, body: z.infer<typeof UserUpdate>) {
      await platformUser(sql, platformTokenId, id);
      const passwordHash = body.password ? await hashPassword(body.password) : undefined;
      const changes = {
        name: body.name,
        email: body.email,
        displayName: body.display_name,
        passwordHash,
        customAttributes: body.custom_attributes,
      };
      const user = await updateUser(sql, id, changes, now());
      if (user === 'taken') throw emailTaken();
      if (!user) throw new ParleyError('not_found', `No user ${id}.`);
      if (passwordHash) {
        // Whoever knew the old password signs in again: the person's console sessions end, and their sockets close.
        await endOtherSessions(sql, id);
        onAccessChanged({ kind: 'user', id });
      }
      return userView(sql, user);
    },
    async deleteUser(platformTokenId: number, id: number) {
      await platformUser(sql, platformTokenId, id);
      await deleteUser(sql, id);
      onAccessChanged({ kind: 'user', id });
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
