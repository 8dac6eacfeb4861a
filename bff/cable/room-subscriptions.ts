import type { SecretBox } from '../../shared/server/index.ts';
import { CABLE_LIMITS, type RoomIdentifier } from './protocol.ts';
import type { ContactStream, ContactStreams } from './contact-streams.ts';
import { subscribePerson } from './person-room.ts';
import { holdPersonSubscription, type HeldSubscription, type PersonSubscriptionDeps } from './person-subscription.ts';
import { namesPerson, presenceOf, subscribeToRoom } from './room-channel.ts';

export interface RoomSubscriptionDeps extends PersonSubscriptionDeps {
  streams: ContactStreams;
  /** Finds a contact by its pubsub_token's keyed hash (issue 33). */
  secrets: SecretBox;
}

/**
 * Decides a RoomChannel subscription and, when granted, holds it: a person's (account_id and
 * user_id with the pubsub_token of their access token) or a contact's. Undefined: refused.
 */
export async function holdRoom(
  deps: RoomSubscriptionDeps,
  room: RoomIdentifier,
  origin: string | undefined,
  write: (event: string, data: unknown) => void,
  end: () => void,
): Promise<HeldSubscription | undefined> {
  if (namesPerson(room)) {
    const decided = await subscribePerson(deps.sql, room, deps.now());
    return decided.granted ? holdPersonSubscription(deps, room, decided.person, write, end) : undefined;
  }
  const { streams } = deps;
  const decided = await subscribeToRoom(deps.sql, deps.secrets, room, origin);
  if (!decided.granted || streams.count(decided.contact.id) >= CABLE_LIMITS.subscriptionsPerToken) return undefined;
  const stream: ContactStream = { contactId: decided.contact.id, inboxId: decided.contact.inboxId, send: write, end };
  streams.add(stream);
  return {
    presence: () => stream.send('presence.update', presenceOf(decided.inbox)),
    remove: () => streams.remove(stream),
  };
}
