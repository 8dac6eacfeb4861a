/**
 * The Application API's records as the console reads them (the part it uses). The BFF's zod
 * schemas (`bff/helpdesk/schemas.ts`) are the source; these stay a subset of them.
 */

export interface Person {
  id: number;
  name: string;
  display_name?: string | null;
  email: string;
  accounts: { id: number; name: string; role: 'administrator' | 'agent' }[];
}

export interface Session {
  access_token: string;
  expires_at: string;
  user: Person;
}

export type DeskStatus = 'open' | 'pending' | 'snoozed' | 'resolved';

export interface DeskConversation {
  id: number;
  uuid: string;
  inbox_id: number;
  status: DeskStatus;
  handled_by: 'ai' | 'human';
  snoozed_until: number | null;
  assignee_id: number | null;
  contact: {
    name: string | null;
    email: string | null;
    customer_ref: string;
    identifier: string | null;
    custom_attributes: Record<string, unknown>;
  };
  page_url: string | null;
  unread_count: number;
  agent_last_seen_at: number | null;
  contact_last_read_id: number;
  last_activity_at: number;
  created_at: number;
}

export interface DeskConversationList {
  data: { meta: { mine_count: number; unassigned_count: number; all_count: number }; payload: DeskConversation[] };
}

export interface DeskMessage {
  id: number;
  content: string;
  /** 0 the customer's, 1 an answer (the AI's, a person's, a bot's), 2 a notice, 3 the survey question. */
  message_type: 0 | 1 | 2 | 3;
  content_type: string;
  private: boolean;
  created_at: number;
  sender: { type: 'contact' | 'user' | 'agent_bot'; id?: number | null; name: string } | null;
  /** A customer's photos and PDFs (Chatwoot's shape), only on messages with some. */
  attachments?: DeskAttachment[];
}

/** A file a customer sent; `data_url` answers to the same token as every Application API call. */
export interface DeskAttachment {
  id: number;
  file_type: 'image' | 'file';
  data_url: string;
  file_name: string;
  file_size: number;
  width: number | null;
  height: number | null;
}
