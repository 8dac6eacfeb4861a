import { z } from 'zod';

/**
 * The payloads of the `/desk` Socket.IO namespace (the people's, for the agent console), one zod
 * source: the BFF validates what consoles send with these, and `shared/desk-socket-events.ts` types
 * both sides from them. Pushes carry ids and small facts only; the console reads the records
 * through the Application API, so a push can never show more than the Application API would.
 */

const ConversationNumber = z.number().int().min(1).max(2_147_483_647);

/** `conversation:watch`: follow one conversation's typing and read marks (null: none). */
export const DeskWatchCommand = z.strictObject({ conversation_id: ConversationNumber.nullable() });
export type DeskWatchCommand = z.infer<typeof DeskWatchCommand>;

/** `typing:set`: the person types an answer (or stopped); the customer's widget shows it. */
export const DeskTypingCommand = z.strictObject({ conversation_id: ConversationNumber, typing: z.boolean() });
export type DeskTypingCommand = z.infer<typeof DeskTypingCommand>;

/** `conversation:changed`: something in a conversation of an inbox the person sees changed; read it again. */
export const DeskConversationChanged = z.object({
  id: z.number().int(),
  inbox_id: z.number().int(),
  /** What changed: `message` (a new message or note), `status`, `assignee`, `labels`, `created`, `read`. */
  what: z.enum(['created', 'message', 'status', 'assignee', 'labels', 'read']),
});
export type DeskConversationChanged = z.infer<typeof DeskConversationChanged>;

/** `presence:changed`: a person of the account said whether they are available; read who is again. */
export const DeskPresenceChange = z.object({
  user_id: z.number().int(),
  availability: z.enum(['online', 'busy', 'offline']),
});
export type DeskPresenceChange = z.infer<typeof DeskPresenceChange>;

/** `typing:changed`: the customer of a watched conversation types, or stopped. */
export const DeskTypingChange = z.object({ conversation_id: z.number().int(), typing: z.boolean() });
export type DeskTypingChange = z.infer<typeof DeskTypingChange>;

/** `read:changed`: the customer has read the watched conversation up to a message. */
export const DeskReadChange = z.object({ conversation_id: z.number().int(), last_read_id: z.number().int() });
export type DeskReadChange = z.infer<typeof DeskReadChange>;
