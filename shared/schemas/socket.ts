import { z } from 'zod';
import { MessageStatus, ReadRequest, TypingRequest, WidgetMessage } from './widget.ts';

/**
 * The payloads of the `/widget` Socket.IO namespace, one zod source: the BFF validates what clients
 * send with these, and `shared/socket-events.ts` types both sides from them (type-only, so no zod
 * reaches the widget).
 */

const ConversationRef = z.string().max(100);

/** `typing:set`: the customer is typing (or stopped) in a conversation. */
export const TypingCommand = TypingRequest.extend({ conversation_id: ConversationRef });
export type TypingCommand = z.infer<typeof TypingCommand>;

/** `read:mark`: the customer has read up to a message. */
export const ReadCommand = ReadRequest.extend({ conversation_id: ConversationRef });
export type ReadCommand = z.infer<typeof ReadCommand>;

/** `read:mark`'s ack data. */
export const ReadResult = z.object({ last_read_id: z.number().int(), unread: z.number().int() });
export type ReadResult = z.infer<typeof ReadResult>;

/** `message:updated`: a message's status moved (delivered, read, failed). */
export const MessageUpdate = z.object({ id: z.number().int(), conversation_id: z.string(), status: MessageStatus });
export type MessageUpdate = z.infer<typeof MessageUpdate>;

/** `typing:changed`: the AI works on an answer, or a person types. */
export const TypingChange = z.object({
  conversation_id: z.string(),
  who: z.enum(['ai', 'human']),
  typing: z.boolean(),
});
export type TypingChange = z.infer<typeof TypingChange>;

/** `conversation:handed_over`, `conversation:handed_back`, `conversation:reopened`. */
export const ConversationNotice = z.object({ conversation_id: z.string() });
export type ConversationNotice = z.infer<typeof ConversationNotice>;

/** `message:delta`: a piece of the AI's reply as it is written (the whole reply follows as `message:created`). */
export const MessageDelta = ConversationNotice.extend({ text: z.string() });
export type MessageDelta = z.infer<typeof MessageDelta>;

/** `conversation:closed`, with whether the AI resolved it. */
export const ConversationClosed = ConversationNotice.extend({ resolved: z.boolean() });
export type ConversationClosed = z.infer<typeof ConversationClosed>;

/**
 * `availability:changed`: whether someone who answers the inbox is online now changed (a person
 * switched "Available", issue 31), and with it whether the customer may call (`features.calls`):
 * the widget's header follows without a reload.
 */
export const AvailabilityChange = z.object({ people_available: z.boolean(), calls: z.boolean() });
export type AvailabilityChange = z.infer<typeof AvailabilityChange>;

/** `message:created` carries a stored message. */
export const MessageCreated = WidgetMessage;

/** An ack's error: a stable code and a readable message, as on HTTP. */
export const AckError = z.object({ code: z.string(), message: z.string() });
