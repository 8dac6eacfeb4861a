import type { Logger, Sql } from '../../shared/server/index.ts';
import { accountPresence, subscribePerson, type PersonRoom } from './person-room.ts';
import type { PersonStream, PersonStreams } from './person-streams.ts';
import type { RoomIdentifier } from './protocol.ts';

/**
 * How often a person's subscription is checked again: a signed-out session, a removal from the
 * account, other inboxes or a closed account end or narrow it within this time (and at each
 * `update_presence`, which Chatwoot's clients send every 20 s).
 */
export const PERSON_RECHECK_MS = 30_000;

export interface PersonSubscriptionDeps {
  sql: Sql;
  people: PersonStreams;
  logger: Logger;
  now: () => Date;
}

/** A person's subscription as a connection holds it. */
export interface HeldSubscription {
  /** Sends presence.update (checking a person's standing again first). */
  presence(): void;
  remove(): void;
}

/** Holds a granted person's subscription: their inboxes' events, presence, and the checks again. */
export function holdPersonSubscription(
  { sql, people, logger, now }: PersonSubscriptionDeps,
  room: RoomIdentifier,
  person: PersonRoom,
  write: (event: string, data: unknown) => void,
  end: () => void,
): HeldSubscription {
  const stream: PersonStream = { person, send: write, end };
  people.add(stream);
  const recheck = async () => {
    const again = await subscribePerson(sql, room, now());
    if (!again.granted) {
      end();
      return false;
    }
    stream.person.inboxIds = again.person.inboxIds;
    return true;
  };
  const failed = (error: unknown) => logger.warn({ err: error }, "a person's /cable subscription could not be checked");
  const timer = setInterval(() => void recheck().catch(failed), PERSON_RECHECK_MS);
  timer.unref();
  return {
    presence: () =>
      void recheck()
        .then(async (still) => still && write('presence.update', await accountPresence(sql, person.accountId)))
        .catch(failed),
    remove: () => {
      clearInterval(timer);
      people.remove(stream);
    },
  };
}
