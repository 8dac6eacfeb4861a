import { handshakeRefusal } from '../../shared/handshake.ts';
import type { Server, Socket } from 'socket.io';
import type { z } from 'zod';
import {
  DESK_NAMESPACE,
  DeskTypingCommand,
  DeskWatchCommand,
  ParleyError,
  type Ack,
  type DeskClientEvents,
  type DeskConversationChanged,
  type DeskServerEvents,
} from '../../shared/index.ts';
import { parseWith, toParleyError, type Logger, type Sql } from '../../shared/server/index.ts';
import type { ChangeBatch, Publisher } from '../realtime/publisher.ts';
import type { DeskConversationService } from './desk-conversation-service.ts';
import type { OnPresenceChanged } from './presence-routes.ts';
import {
  accountRoom,
  conversationRoom,
  currentStanding,
  standingStill,
  holderOfCaller,
  holderRoom,
  inboxRoom,
  listRoomsOf,
  recheckDeskSockets,
  type DeskNamespace,
  type DeskSocketData,
} from './desk-socket-access.ts';
import { hashToken, type TokenHolder } from './store/credentials.ts';

type DeskSocket = Socket<DeskClientEvents, DeskServerEvents, Record<string, never>, DeskSocketData>;

/** The rooms every console connected to an account is in (its administrators', its inboxes' agents'): closed when the account is suspended or deleted. */
export const deskRoomsOf = (accountId: number, inboxIds: readonly string[]): string[] => [
  accountRoom(accountId),
  ...inboxIds.map(inboxRoom),
];

/** Which change says what to the list, most telling first (a batch is told by its most telling change). */
const WHAT: Partial<
  Record<ChangeBatch['changes'][number]['type'], { what: DeskConversationChanged['what']; rank: number }>
> = {
  'conversation.created': { what: 'created', rank: 0 },
  handed_over: { what: 'status', rank: 1 },
  handed_back: { what: 'status', rank: 1 },
  closed: { what: 'status', rank: 1 },
  reopened: { what: 'status', rank: 1 },
  snoozed: { what: 'status', rank: 1 },
  assigned: { what: 'assignee', rank: 2 },
  'labels.changed': { what: 'labels', rank: 2 },
  'message.created': { what: 'message', rank: 3 },
  'note.created': { what: 'message', rank: 3 },
  'survey.asked': { what: 'message', rank: 3 },
  'message.answered': { what: 'message', rank: 3 },
  'customer.read': { what: 'read', rank: 4 },
};

/** What a batch changed, for the list: the first that applies of created, status, assignee, message, read. */
function whatChanged({ changes }: ChangeBatch): DeskConversationChanged['what'] | undefined {
  let told: { what: DeskConversationChanged['what']; rank: number } | undefined;
  for (const change of changes) {
    const says = WHAT[change.type];
    if (says && (!told || says.rank < told.rank)) told = says;
  }
  return told?.what;
}

export interface DeskSocketDeps {
  sql: Sql;
  desk: DeskConversationService;
  publisher: Publisher;
  logger: Logger;
  now: () => Date;
}

/** Who connects: a person's (or bot's) token and an account they have a standing in, kept on the socket. */
async function authenticate(sql: Sql, now: () => Date, socket: DeskSocket): Promise<void> {
  const auth = socket.handshake.auth as { token?: unknown; account_id?: unknown };
  if (typeof auth.token !== 'string' || !auth.token)
    throw new ParleyError('unauthorized', 'Send your access token as auth.token.');
  const accountId = Number(auth.account_id);
  if (!Number.isSafeInteger(accountId) || accountId < 1)
    throw new ParleyError('unauthorized', 'Send the account as auth.account_id.');
  if (auth.token.length > 200) throw new ParleyError('unauthorized', 'The access token is not valid.');
  const tokenHash = hashToken(auth.token);
  const current = await currentStanding(sql, tokenHash, accountId, now());
  if (!current)
    throw new ParleyError('unauthorized', 'The access token is not valid, or you are not a member of this account.');
  const { caller, standing, expiresAt } = current;
  socket.data = { tokenHash, expiresAt, caller, accountId, standing, watching: undefined, typing: false };
}

/**
 * A console's command handler: the payload validated, the socket's token and standing checked again
 * (a socket is refused, and closed, once its person signed out, lost the account or is gone), and
 * the answer through the ack.
 */
function commandsOf(socket: DeskSocket, joined: Promise<void>, { sql, logger, now }: DeskSocketDeps) {
  return <S extends z.ZodType, T>(schema: S, run: (payload: z.output<S>) => Promise<T>) =>
    (payload: unknown, reply?: (result: Ack<T>) => void) => {
      const answer = (result: Ack<T>) => (typeof reply === 'function' ? reply(result) : undefined);
      let gone = false;
      (async () => {
        await joined;
        const current = await standingStill(sql, socket.data, now());
        gone = !current;
        if (!current)
          throw new ParleyError(
            'unauthorized',
            'The access token is not valid, or you are not a member of this account.',
          );
        socket.data.standing = current.standing;
        return run(parseWith(schema, payload));
      })().then(
        (data) => answer({ ok: true, data }),
        (error: unknown) => {
          const failure = toParleyError(error);
          if (failure.code === 'internal') logger.error({ err: error }, 'a desk socket command failed');
          answer({ ok: false, error: { code: failure.code, message: failure.message } });
          // Told why first, then closed.
          if (gone) socket.disconnect(true);
        },
      );
    };
}

/** A console connected: it joins its rooms, and its commands (watch a conversation, say it types) are answered. */
function serveConsole(socket: DeskSocket, deps: DeskSocketDeps): void {
  const { desk, publisher, logger, now } = deps;
  const { caller, accountId, expiresAt } = socket.data;
  // The commands below are listened for from the first tick, since Socket.IO drops an event nobody
  // listens for yet (a console sends `conversation:watch` as soon as it connects); each waits for this.
  const joined = (async () => {
    await socket.join([holderRoom(holderOfCaller(caller)), ...(await listRoomsOf(desk, socket.data))]);
  })();
  joined.catch((error: unknown) => {
    logger.error({ err: error }, 'a desk socket could not join its rooms');
    socket.disconnect(true);
  });
  // A session's socket ends with the session; the timer is capped where Node's would overflow (about 24.8 days).
  const expiry =
    expiresAt &&
    setTimeout(() => socket.disconnect(true), Math.min(expiresAt.getTime() - now().getTime(), 2 ** 31 - 1));
  const command = commandsOf(socket, joined, deps);

  /** A person who leaves a conversation (or the console) while typing has stopped: the widget must not show it for ever. */
  const stopTyping = () => {
    const { watching, typing } = socket.data;
    socket.data.typing = false;
    if (watching && typing) publisher.publish(watching, { type: 'typing', who: 'human', typing: false });
  };
  socket.on('disconnect', () => {
    clearTimeout(expiry);
    stopTyping();
  });

  socket.on(
    'conversation:watch',
    command(DeskWatchCommand, async ({ conversation_id }) => {
      const { standing } = socket.data;
      const found =
        conversation_id === null ? undefined : (await desk.find(accountId, caller, standing, conversation_id)).record;
      stopTyping();
      if (socket.data.watching) await socket.leave(conversationRoom(socket.data.watching.id));
      socket.data.watching = found;
      if (found) await socket.join(conversationRoom(found.id));
      return { conversation_id: found?.id ?? null };
    }),
  );
  socket.on(
    'typing:set',
    command(DeskTypingCommand, async ({ conversation_id, typing }) => {
      const watching = socket.data.watching;
      if (!watching || watching.id !== conversation_id)
        throw new ParleyError('invalid_state', 'Watch the conversation (conversation:watch) before typing in it.');
      // The inbox may have been taken from this person since they began watching.
      await desk.find(accountId, caller, socket.data.standing, watching.id);
      if (watching.status === 'resolved' || socket.data.typing === typing) return null;
      socket.data.typing = typing;
      publisher.publish(watching, { type: 'typing', who: 'human', typing });
      return null;
    }),
  );
}

/**
 * The published changes, pushed to the consoles that may see them: the customer's typing and read
 * marks and the AI's answer as it is written (`message:delta`) to those watching the conversation, `conversation:changed` to the rooms of its account and inbox.
 */
function pushChanges(namespace: DeskNamespace, { sql, publisher, logger }: DeskSocketDeps): void {
  // An inbox never moves to another account: its account and number are read once per process. One
  // of no account (made by `npm run bff:inbox` before the helpdesk) is asked about again after a minute.
  const inboxes = new Map<string, { accountId: number; number: number } | { until: number }>();
  /** Reads an inbox's account and number, and keeps them (or that it has no account, for a minute). */
  async function readInbox(inboxId: string): Promise<{ accountId: number; number: number } | undefined> {
    const [row] = await sql.query<{ account_id: number | null; display_id: number }>(
      'SELECT account_id, display_id FROM inboxes WHERE id = $1',
      [inboxId],
    );
    if (row?.account_id == null) {
      inboxes.set(inboxId, { until: Date.now() + 60_000 });
      return undefined;
    }
    const found = { accountId: row.account_id, number: row.display_id };
    inboxes.set(inboxId, found);
    return found;
  }

  publisher.subscribe((batch) => {
    const { conversation, changes } = batch;
    for (const change of changes) {
      if (change.type === 'customer.typing')
        namespace
          .to(conversationRoom(conversation.id))
          .emit('typing:changed', { conversation_id: conversation.id, typing: change.typing });
      if (change.type === 'reply.delta')
        namespace
          .to(conversationRoom(conversation.id))
          .emit('message:delta', { conversation_id: conversation.id, text: change.text });
      if (change.type === 'customer.read')
        namespace
          .to(conversationRoom(conversation.id))
          .emit('read:changed', { conversation_id: conversation.id, last_read_id: change.lastReadId });
    }
    const what = whatChanged(batch);
    if (!what) return;
    const tell = (inbox: { accountId: number; number: number } | undefined) => {
      if (inbox)
        namespace
          .to([accountRoom(inbox.accountId), inboxRoom(conversation.inboxId)])
          .emit('conversation:changed', { id: conversation.id, inbox_id: inbox.number, what });
    };
    // Usually known: told at once, without a promise per batch.
    const known = inboxes.get(conversation.inboxId);
    if (known && 'accountId' in known) return tell(known);
    if (known && known.until > Date.now()) return;
    readInbox(conversation.inboxId).then(tell, (error: unknown) => logger.error({ err: error }, 'a desk push failed'));
  });
}

/**
 * The `/desk` namespace, for the agent console: a person (or bot) connects with their token and an
 * account in `auth`, and joins the rooms of what they may see (the account for administrators,
 * each inbox they answer for agents). Pushes are small: `conversation:changed` (read it again
 * through the Application API), and for the conversation the console watches, the customer's
 * `typing:changed`, `read:changed` and the AI's streamed answer, `message:delta`. Commands: `conversation:watch` and `typing:set` (the
 * person's typing, shown in the customer's widget).
 */
export function addDeskSocket(io: Server, deps: DeskSocketDeps): DeskSockets {
  const { sql, logger, now } = deps;
  const namespace = io.of(DESK_NAMESPACE) as unknown as DeskNamespace;
  namespace.use((socket, next) => {
    authenticate(sql, now, socket).then(
      () => next(),
      (error: unknown) => {
        const refusal =
          error instanceof ParleyError ? error : new ParleyError('unauthorized', 'The token could not be checked.');
        if (!(error instanceof ParleyError)) logger.error({ err: error }, 'a desk socket handshake failed');
        next(handshakeRefusal(refusal.code, refusal.message));
      },
    );
  });
  namespace.on('connection', (socket) => serveConsole(socket, deps));
  pushChanges(namespace, deps);
  return {
    accessChanged: (holder) =>
      recheckDeskSockets(namespace, deps, holder).catch((error: unknown) =>
        logger.error({ err: error }, 'desk sockets could not be checked again'),
      ),
    async presenceChanged({ accountId, userId, availability }) {
      const inboxes = await sql.query<{ id: string }>('SELECT id FROM inboxes WHERE account_id = $1', [accountId]);
      namespace
        .to(
          deskRoomsOf(
            accountId,
            inboxes.map((inbox) => inbox.id),
          ),
        )
        .emit('presence:changed', { user_id: userId, availability });
    },
  };
}

export interface DeskSockets {
  /** A person's (or bot's) access changed: their open consoles, on every node, are checked again. */
  accessChanged(holder: TokenHolder): Promise<void>;
  /** A person said whether they are available: the account's open consoles, on every node, hear of it. */
  presenceChanged: (...change: Parameters<OnPresenceChanged>) => Promise<void>;
}
