import type { Socket } from 'socket.io';
import { ParleyError } from '../../shared/index.ts';
import { clientLimitKey, type Queryable } from '../../shared/server/index.ts';

/** Open `/client` sockets one contact's `pubsub_token` may hold on one node (its tabs and devices); one more is refused. */
export const CLIENT_SOCKETS_PER_TOKEN = 20;
/** Open `/client` sockets one client address may hold on one node (as the widget's: a household or an office). */
export const CLIENT_SOCKETS_PER_ADDRESS = 200;

/**
 * Who may open a `/client` socket, beyond a valid `pubsub_token` (issue 33: one token held 60 of
 * 60 sockets, and the inbox's allowed origins were not asked): at most CLIENT_SOCKETS_PER_TOKEN per
 * token and CLIENT_SOCKETS_PER_ADDRESS per address on this node, and from a browser only from an
 * origin the inbox lists (as its Client API routes: a client without an Origin, a server or an
 * app, may connect; an inbox without a list takes any).
 */
export function createClientSocketAdmission(trustProxyHops: number) {
  const open = new Map<string, number>();
  const count = (key: string, by: number) => {
    const next = (open.get(key) ?? 0) + by;
    if (next > 0) open.set(key, next);
    else open.delete(key);
  };
  return {
    /** Refuses the socket (`origin_not_allowed`, `rate_limited`), or counts it until it disconnects. */
    async admit(db: Queryable, socket: Socket, contact: { id: number; inboxId: string }): Promise<void> {
      const origin = socket.handshake.headers.origin;
      if (origin) {
        const [row] = await db.query<{ client_api_origins: string[] }>(
          'SELECT client_api_origins FROM inboxes WHERE id = $1',
          [contact.inboxId],
        );
        const allowed = row?.client_api_origins ?? [];
        if (allowed.length > 0 && !allowed.includes(origin))
          throw new ParleyError('origin_not_allowed', `This inbox may not be used from ${origin}.`);
      }
      const keys = [`contact:${contact.id}`, `address:${clientLimitKey(socket.request, trustProxyHops)}`];
      if ((open.get(keys[0]!) ?? 0) >= CLIENT_SOCKETS_PER_TOKEN)
        throw new ParleyError('rate_limited', `At most ${CLIENT_SOCKETS_PER_TOKEN} open connections per pubsub_token.`);
      if ((open.get(keys[1]!) ?? 0) >= CLIENT_SOCKETS_PER_ADDRESS)
        throw new ParleyError('rate_limited', `At most ${CLIENT_SOCKETS_PER_ADDRESS} open connections per address.`);
      for (const key of keys) count(key, 1);
      socket.once('disconnect', () => {
        for (const key of keys) count(key, -1);
      });
    },
  };
}
