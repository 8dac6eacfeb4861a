import { ParleyError } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import { platformUser } from './platform-ownership.ts';
import {
  createSignInLink,
  hashToken,
  hashPassword,
  issueSession,
  newToken,
  passwordMatches,
  personPubsubToken,
  useSignInLink,
} from './store/credentials.ts';
import { findUser, findUserByEmail } from './store/users.ts';
import { userView } from './user-service.ts';

/** How long a one-time sign-in link works. */
export const SIGN_IN_LINK_TTL_MS = 5 * 60_000;
/**
 * The agent console's address that signs a person in with a one-time link's token. The token is in
 * the fragment: a browser does not send it to any server, and it stays out of logs.
 */
export const consoleSignInUrl = (baseUrl: string, token: string): string =>
  `${baseUrl}/console/#sign_in_token=${token}`;

/** How long a console session lasts unused: each resume (a new tab, a reload) starts the time again. */
export const SESSION_TTL_MS = 30 * 86_400_000;

/**
 * Signing in to the agent console: the operator's one-time links (Platform API), and the console's
 * sign-in with such a link or with e-mail address and password, which opens a session.
 */
export function createSignInService({ sql, now }: { sql: Sql; now: () => Date }) {
  let standInHash: Promise<string> | undefined;
  const standIn = () => (standInHash ??= hashPassword(newToken()));
  return {
    /** A one-time link that signs the person in to the console; short-lived, useless after its first use. */
    async signInLink(platformTokenId: number, id: number, baseUrl: string) {
      await platformUser(sql, platformTokenId, id);
      const token = await createSignInLink(sql, id, now(), SIGN_IN_LINK_TTL_MS);
      return { url: consoleSignInUrl(baseUrl, token) };
    },
    /** One answer for every refusal, so it does not tell which e-mail addresses have an account. */
    async signIn(credentials: { sign_in_token: string } | { email: string; password: string }) {
      let userId: number | undefined;
      if ('sign_in_token' in credentials) {
        userId = await useSignInLink(sql, credentials.sign_in_token, now());
      } else {
        const user = await findUserByEmail(sql, credentials.email);
        // The hash is worked out for an unknown address (or a person without a password) too, against a
        // stand-in: the answer takes as long, so its time does not tell which addresses have an account.
        const matches = await passwordMatches(credentials.password, user?.passwordHash ?? (await standIn()));
        if (user?.passwordHash && matches) userId = user.id;
      }
      if (userId === undefined) {
        throw new ParleyError(
          'unauthorized',
          'The sign-in link is not valid (used, expired or unknown), or the e-mail address and password do not match.',
        );
      }
      const session = await issueSession(sql, userId, now(), SESSION_TTL_MS);
      const user = await userView(sql, (await findUser(sql, userId))!);
      // The person's /cable stream is named by a pubsub_token that goes with this session (bff/cable).
      return {
        access_token: session.token,
        expires_at: session.expiresAt.toISOString(),
        user: { ...user, pubsub_token: personPubsubToken(session.token) },
      };
    },
  };
}

/**
 * A console session again (a new tab, a reload), from the token its cookie keeps: it lasts another
 * SESSION_TTL_MS from now. A session that ended or expired is refused.
 */
export async function resumeSession(sql: Sql, now: () => Date, token: string) {
  const at = now();
  const expiresAt = new Date(at.getTime() + SESSION_TTL_MS);
  const [row] = await sql.query<{ user_id: number }>(
    `UPDATE access_tokens SET expires_at = $2, pubsub_hash = $4
      WHERE token_hash = $1 AND kind = 'session' AND user_id IS NOT NULL AND expires_at > $3 RETURNING user_id`,
    [hashToken(token), expiresAt, at, hashToken(personPubsubToken(token))],
  );
  const found = row && (await findUser(sql, row.user_id));
  if (!found) throw new ParleyError('unauthorized', 'The session has ended: sign in again.');
  return {
    access_token: token,
    expires_at: expiresAt.toISOString(),
    user: { ...(await userView(sql, found)), pubsub_token: personPubsubToken(token) },
  };
}

export type SignInService = ReturnType<typeof createSignInService>;
