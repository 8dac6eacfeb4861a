import type { Namespace } from 'socket.io';
import { ParleyError, type DeskClientEvents, type DeskServerEvents } from '../../shared/index.ts';
import type { Sql } from '../../shared/server/index.ts';
import type { ConversationRecord } from '../store/conversations.ts';
import { callerOf, standingIn, type Caller } from './auth.ts';
import type { DeskConversationService } from './desk-conversation-service.ts';
import { holderOfTokenHash, type TokenHolder } from './store/credentials.ts';
import type { Role } from './store/accounts.ts';

/**
 * Who may keep a `/desk` socket, and which rooms it stays in. A socket is only as good as the token
 * and standing it was opened with: signing out, a session's end, a new password, removal from the
 * account, the person's deletion, a new role or other inboxes are all checked again here.
 */

export interface DeskSocketData {
  /** The SHA-256 of the token the socket connected with (never the token: this travels between nodes). */
  tokenHash: string;
  /** When the token stops working (a console session's end), if it does on its own. */
  expiresAt: Date | undefined;
  caller: Caller;
  accountId: number;
  standing: Role | 'bot';
  /** The conversation this console has open: its customer's typing and read marks come here. */
  watching: ConversationRecord | undefined;
  /** The person said they type in the watched conversation and has not said they stopped. */
  typing: boolean;
}

export type DeskNamespace = Namespace<DeskClientEvents, DeskServerEvents, Record<string, never>, DeskSocketData>;

/** Administrators hear of the whole account (inboxes made later included); agents and bots of the inboxes they may see. */
export const accountRoom = (accountId: number) => `desk:account:${accountId}`;
export const inboxRoom = (inboxId: string) => `desk:inbox:${inboxId}`;
export const conversationRoom = (id: number) => `desk:conversation:${id}`;
/** Every socket of one person (or bot), in any account: found again when their access changes. */
export const holderRoom = (holder: TokenHolder) => `desk:holder:${holder.kind}:${holder.id}`;
export const holderOfCaller = (caller: Caller): TokenHolder =>
  caller.kind === 'user' ? { kind: 'user', id: caller.user.id } : { kind: 'agent_bot', id: caller.bot.id };

const CONVERSATION_ROOM = /^desk:conversation:(\d+)$/;
const listRoom = (room: string) => room.startsWith('desk:account:') || room.startsWith('desk:inbox:');

/** The rooms of the lists a console hears of: the account's for administrators, each visible inbox's otherwise. */
export async function listRoomsOf(
  desk: DeskConversationService,
  { accountId, caller, standing }: { accountId: number; caller: Caller; standing: Role | 'bot' },
): Promise<string[]> {
  const inboxes = await desk.visibleInboxIds(accountId, caller, standing);
  return inboxes ? inboxes.map(inboxRoom) : [accountRoom(accountId)];
}

/**
 * What a token allows in an account now: its holder and their standing, or nothing (the token
 * ended or expired, the holder is gone or out of the account). A suspended account is refused with
 * `account_suspended`, as everywhere.
 */
export async function currentStanding(
  sql: Sql,
  tokenHash: string,
  accountId: number,
  now: Date,
): Promise<{ caller: Caller; standing: Role | 'bot'; expiresAt: Date | undefined } | undefined> {
  const found = await holderOfTokenHash(sql, tokenHash, now);
  const caller = await callerOf(sql, found?.holder);
  if (!found || !caller) return undefined;
  const standing = await standingIn(sql, caller, accountId);
  return standing && { caller, standing, expiresAt: found.expiresAt };
}

/** As `currentStanding`, for a socket already open: a suspended account leaves it nothing either. */
export async function standingStill(
  sql: Sql,
  { tokenHash, accountId }: Pick<DeskSocketData, 'tokenHash' | 'accountId'>,
  now: Date,
): ReturnType<typeof currentStanding> {
  try {
    return await currentStanding(sql, tokenHash, accountId, now);
  } catch (error) {
    if (error instanceof ParleyError && error.code === 'account_suspended') return undefined;
    throw error;
  }
}

export interface DeskAccessDeps {
  sql: Sql;
  desk: DeskConversationService;
  now: () => Date;
}

/**
 * Checks every open `/desk` socket of a person (or bot) again, on every node (through the
 * adapter): one whose token or standing is gone is closed; the others leave the rooms they may no
 * longer hear and join the ones they now may, and leave a watched conversation they may no longer
 * see. Commands check again on their own, so a socket on another node needs no new state here.
 */
export async function recheckDeskSockets(
  namespace: DeskNamespace,
  { sql, desk, now }: DeskAccessDeps,
  holder: TokenHolder,
): Promise<void> {
  for (const socket of await namespace.in(holderRoom(holder)).fetchSockets()) {
    const { accountId } = socket.data;
    const current = await standingStill(sql, socket.data, now());
    if (!current) {
      socket.disconnect(true);
      continue;
    }
    const rooms = await listRoomsOf(desk, { accountId, ...current });
    for (const room of socket.rooms) {
      if (listRoom(room) && !rooms.includes(room)) socket.leave(room);
      const watched = CONVERSATION_ROOM.exec(room)?.[1];
      if (watched && !(await maySee(desk, { accountId, ...current }, Number(watched)))) socket.leave(room);
    }
    socket.join(rooms);
  }
}

/** Whether the caller may see the conversation (the desk's own rule, which answers not_found otherwise). */
async function maySee(
  desk: DeskConversationService,
  { accountId, caller, standing }: { accountId: number; caller: Caller; standing: Role | 'bot' },
  conversationId: number,
): Promise<boolean> {
  try {
    await desk.find(accountId, caller, standing, conversationId);
    return true;
  } catch (error) {
    if (error instanceof ParleyError && error.code === 'not_found') return false;
    throw error;
  }
}
