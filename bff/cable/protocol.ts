/**
 * ActionCable's wire protocol, as Rails' `@rails/actioncable` client and Chatwoot's SDKs speak it
 * (docs: shared/reference/chatwoot-actioncable.md, "Transport"). Frames are JSON text; a
 * subscription is named by its identifier, a JSON *string* the server echoes byte for byte.
 */
import { z } from 'zod';

export const CABLE_PATH = '/cable';
/** The one subprotocol served; `@rails/actioncable` also offers `actioncable-unsupported`, which is never chosen. */
export const CABLE_SUBPROTOCOL = 'actioncable-v1-json';
/** Rails' beat (`BEAT_INTERVAL = 3`): a client reconnects after 6 s without one. */
export const PING_INTERVAL_MS = 3_000;

/** What one connection may do, so that no client can hold the server's memory or the store's time. */
export const CABLE_LIMITS = {
  /** A frame is a command with an identifier; Chatwoot's clients send a few hundred bytes. */
  maxFrameBytes: 16 * 1024,
  subscriptionsPerConnection: 10,
  /** Subscriptions of one pubsub_token on one node (a contact's tabs, apps and reconnects in flight). */
  subscriptionsPerToken: 20,
  /** Commands (and frames that are not commands) per connection in one window. */
  commandsPerWindow: 30,
  commandWindowMs: 10_000,
  /** A connection that holds no subscription this long is closed: it has nothing to hear. */
  idleWithoutSubscriptionMs: 30_000,
} as const;

/** Why the server closes a connection, in Rails' words (`INTERNAL[:disconnect_reasons]`). */
export type DisconnectReason = 'unauthorized' | 'invalid_request' | 'server_restart' | 'remote';

/** A command from the client. `data` is a JSON string in Rails' client; Chatwoot's Flutter SDK sends an object. */
export const CableCommand = z.object({
  command: z.enum(['subscribe', 'unsubscribe', 'message']),
  identifier: z.string().min(1).max(1024),
  data: z.union([z.string().max(4096), z.record(z.string(), z.unknown()), z.null()]).optional(),
});
export type CableCommand = z.infer<typeof CableCommand>;

/** The channel and parameters a subscription's identifier names (Chatwoot's `RoomChannel`). */
export const RoomIdentifier = z.object({
  channel: z.literal('RoomChannel'),
  pubsub_token: z.string().regex(/^[\w-]{8,128}$/),
  account_id: z.union([z.number().int(), z.string()]).optional(),
  user_id: z.union([z.number().int(), z.string()]).optional(),
});
export type RoomIdentifier = z.infer<typeof RoomIdentifier>;

/** An action performed on a subscription (`update_presence`; the Flutter SDK's typing actions are not RoomChannel's). */
export const CableAction = z.object({ action: z.string().max(64) }).loose();

/** A frame's text as a command, or undefined for anything else (bad JSON, unknown commands). */
export function parseCommand(text: string): CableCommand | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = CableCommand.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** A JSON string's value, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const welcomeFrame = () => JSON.stringify({ type: 'welcome' });
export const pingFrame = (now: number) => JSON.stringify({ type: 'ping', message: Math.floor(now / 1000) });
export const confirmFrame = (identifier: string) => JSON.stringify({ type: 'confirm_subscription', identifier });
export const rejectFrame = (identifier: string) => JSON.stringify({ type: 'reject_subscription', identifier });
export const disconnectFrame = (reason: DisconnectReason, reconnect: boolean) =>
  JSON.stringify({ type: 'disconnect', reason, reconnect });
/** A Chatwoot event on a subscription: `{identifier, message: {event, data}}`. */
export const eventFrame = (identifier: string, event: string, data: unknown) =>
  JSON.stringify({ identifier, message: { event, data } });
