import { z } from 'zod';
import { DeskConversation } from './conversations.ts';

// Search (Chatwoot's conversations/search and contacts/search): by the customer's words, a name, an
// e-mail address or a conversation's number.

export const SearchQuery = z.strictObject({
  q: z.string().trim().min(1).max(200),
  page: z.coerce.number().int().min(1).max(1_000).default(1),
});

/**
 * Where the search matched, as safe HTML: the text is escaped and each match is inside `<mark>`;
 * nothing else is markup, so a client may show it as HTML.
 */
export const SearchHighlight = z.object({
  field: z.enum(['message', 'contact_name', 'contact_email', 'id']),
  html: z.string(),
});

export const ConversationSearchResults = z.object({
  data: z.object({
    meta: z.object({ count: z.number().int() }),
    payload: z.array(DeskConversation.extend({ highlight: SearchHighlight })),
  }),
});
export type ConversationSearchResults = z.infer<typeof ConversationSearchResults>;
