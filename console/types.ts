/**
 * The Application API's records as the console reads them: the types are inferred from the zod
 * schemas that the BFF validates and documents its routes with (`shared/schemas/helpdesk/`), so the
 * console and the BFF cannot disagree about a field. Types only: no schema code reaches the bundle.
 */
export type {
  DeskConversation,
  DeskConversationList,
  DeskFinding,
  DeskFindingPage,
  DeskMessage,
  DeskStatus,
  Session,
  User as Person,
} from '../shared/schemas/helpdesk/index.ts';
export type { PublicAttachment as DeskAttachment } from '../shared/index.ts';
