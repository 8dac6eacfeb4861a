import type { Server as SocketServer } from 'socket.io';
import { z } from 'zod';
import type { Logger } from '../../shared/server/index.ts';

/** What every node is told: a contact's or an inbox's people's events to write, or connections to end. */
export const CableNotice = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('events'),
    contactId: z.number().int(),
    events: z.array(z.tuple([z.string(), z.unknown()])),
  }),
  /** An inbox's events for the people of its account who answer it. */
  z.object({
    kind: z.literal('people'),
    accountId: z.number().int(),
    inboxId: z.string(),
    events: z.array(z.tuple([z.string(), z.unknown()])),
  }),
  z.object({ kind: z.literal('end'), contactIds: z.array(z.number().int()), inboxIds: z.array(z.string()) }),
]);
export type CableNotice = z.infer<typeof CableNotice>;

/** The server-side event of the Socket.IO adapter that carries notices between nodes. */
const RELAY_EVENT = 'cable:notice';

export interface CableRelay {
  /** Tells this node and, when nodes share Redis, every other one. */
  tell(notice: CableNotice): void;
}

/**
 * `/cable` connections are not Socket.IO sockets, but their pushes travel the same way: through the
 * Socket.IO server's adapter (Redis streams when REDIS_URL is set), as a server-side event that
 * every other node hears. Without shared nodes a notice stays on this one.
 */
export function createCableRelay(
  io: SocketServer,
  { shared, reachable, logger }: { shared: boolean; reachable: () => boolean; logger: Logger },
  hear: (notice: CableNotice) => void,
): CableRelay {
  if (shared)
    io.on(RELAY_EVENT, (value: unknown) => {
      const notice = CableNotice.safeParse(value);
      if (notice.success) hear(notice.data);
      else logger.warn('a /cable notice from another node was not understood');
    });
  return {
    tell(notice) {
      hear(notice);
      // Only while Redis answers: its adapter publishes a notice without awaiting it, so a publish
      // to an offline client is an unhandled rejection. Other nodes' clients catch up by cursor.
      if (shared && reachable()) io.serverSideEmit(RELAY_EVENT, notice);
      else if (shared) logger.warn('a /cable notice did not reach the other nodes: Redis is away');
    },
  };
}
