/**
 * The Application API's records as the console reads them: the types are inferred from the zod
 * schemas that the BFF validates and documents its routes with (`shared/schemas/helpdesk/`), so the
 * console and the BFF cannot disagree about a field. Types only: no schema code reaches the bundle.
 */
import type { z } from 'zod';
import type {
  AccountPresence as PresenceSchema,
  ContactUpdate,
  ConversationSearchResults,
} from '../shared/schemas/helpdesk/index.ts';

export type {
  ConversationSearchResults,
  DeskContact,
  DeskConversation,
  Label,
  Team,
  DeskConversationList,
  DeskFinding,
  DeskFindingPage,
  DeskMessage,
  DeskStatus,
  Session,
  User as Person,
} from '../shared/schemas/helpdesk/index.ts';
export type { DeskAttachment } from '../shared/index.ts';

/** Who of the account is available, and per inbox how many. */
export type AccountPresence = z.infer<typeof PresenceSchema>;
/** What the contact panel may change of a contact (`PATCH contacts/{id}`). */
export type ContactChange = z.input<typeof ContactUpdate>;
/** A search result: a conversation and where it matched, as escaped HTML with `<mark>` around the matches. */
export type SearchHit = ConversationSearchResults['data']['payload'][number];
