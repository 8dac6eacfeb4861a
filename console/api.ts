import { deskError } from '../shared/client-error.ts';
import { attachForm } from './attach-files.ts';
import type {
  AccountPresence,
  ContactChange,
  ConversationSearchResults,
  DeskContact,
  DeskConversation,
  DeskConversationList,
  DeskFindingPage,
  DeskMessage,
  Label,
  Session,
  Team,
} from './types.ts';
import type { ReportDays, ReportKind, ReportRecord } from '../shared/schemas/engine-reports.ts';

export type ReportEnvironment = 'live' | 'sandbox';
export interface ReportOrder {
  kind: ReportKind;
  from: string;
  to: string;
  format: 'csv' | 'json';
  environment: ReportEnvironment;
}
import type { AssistResponse } from '../shared/schemas/assist.ts';

export interface ListQuery {
  status: 'open' | 'pending' | 'snoozed' | 'resolved' | 'all';
  assignee_type: 'me' | 'unassigned' | 'all';
  /** Newest activity first, or who has waited longest first. */
  sort_by: 'latest' | 'waiting_since';
  /** Only conversations with this label ('' for all). */
  label: string;
}

/**
 * The console's only way to the helpdesk: the Application API with the session's token in
 * `api_access_token` (never in a URL). Every answer is the API's own shape; a refusal throws
 * `ClientError` with the code of its `bad_request_error` body.
 */
export class DeskApi {
  readonly #token: string;
  readonly #account: number;

  constructor(token: string, accountId: number) {
    this.#token = token;
    this.#account = accountId;
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    // A form (files) goes as multipart/form-data with the boundary the browser writes; anything else as JSON.
    const form = body instanceof FormData;
    const response = await fetch(path, {
      method,
      headers: {
        api_access_token: this.#token,
        ...(body === undefined || form ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : form ? body : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (!response.ok) throw deskError(response.status, parsed, `The helpdesk answered ${response.status}.`);
    return parsed as T;
  }

  #account_(path: string): string {
    return `/api/v1/accounts/${this.#account}${path}`;
  }

  account(): Promise<{ id: number; name: string }> {
    return this.#call('GET', this.#account_(''));
  }

  /** One page of the list; `after` is the page before's `next_cursor`. */
  list(query: ListQuery, after?: string): Promise<DeskConversationList> {
    const search = new URLSearchParams({
      status: query.status,
      assignee_type: query.assignee_type,
      sort_by: query.sort_by,
    });
    if (query.label) search.set('labels', query.label);
    if (after) search.set('after', after);
    return this.#call('GET', this.#account_(`/conversations?${search}`));
  }

  search(q: string): Promise<ConversationSearchResults> {
    return this.#call('GET', this.#account_(`/conversations/search?q=${encodeURIComponent(q)}`));
  }

  labels(): Promise<{ payload: Label[] }> {
    return this.#call('GET', this.#account_('/labels'));
  }

  /** Replaces the conversation's labels with these titles. */
  setLabels(id: number, labels: string[]): Promise<{ payload: string[] }> {
    return this.#call('POST', this.#account_(`/conversations/${id}/labels`), { labels });
  }

  teams(): Promise<Team[]> {
    return this.#call('GET', this.#account_('/teams'));
  }

  presence(): Promise<AccountPresence> {
    return this.#call('GET', this.#account_('/presence'));
  }

  /** The caller's own availability in this account. */
  setAvailability(availability: AccountPresence['payload'][number]['availability_status']): Promise<unknown> {
    return this.#call('PATCH', '/api/v1/profile', { account_id: this.#account, availability });
  }

  /** Assigns to a person, a team, or both; null takes it away, undefined leaves it. */
  assignTo(id: number, to: { assignee_id?: number | null; team_id?: number | null }): Promise<DeskConversation> {
    return this.#call('POST', this.#account_(`/conversations/${id}/assignments`), to);
  }

  /** Snoozed until a Unix time, or (null) until the customer writes again. */
  snooze(id: number, until: number | null): Promise<DeskConversation> {
    return this.#call('POST', this.#account_(`/conversations/${id}/toggle_status`), {
      status: 'snoozed',
      snoozed_until: until,
    });
  }

  contact(id: number): Promise<DeskContact> {
    return this.#call('GET', this.#account_(`/contacts/${id}`));
  }

  updateContact(id: number, change: ContactChange): Promise<DeskContact> {
    return this.#call('PATCH', this.#account_(`/contacts/${id}`), change);
  }

  conversation(id: number): Promise<DeskConversation> {
    return this.#call('GET', this.#account_(`/conversations/${id}`));
  }

  messages(id: number): Promise<{ payload: DeskMessage[] }> {
    return this.#call('GET', this.#account_(`/conversations/${id}/messages`));
  }

  earlier(id: number): Promise<{ payload: DeskConversation[] }> {
    return this.#call('GET', this.#account_(`/conversations/${id}/contact_conversations`));
  }

  /** An answer or a note; with files, Chatwoot's multipart `attachments[]` (the BFF checks them by their bytes). */
  reply(id: number, content: string, isPrivate: boolean, echoId: string, files: readonly File[] = []) {
    const body =
      files.length > 0
        ? attachForm(files, content, isPrivate, echoId)
        : { content, private: isPrivate, echo_id: echoId };
    return this.#call<DeskMessage>('POST', this.#account_(`/conversations/${id}/messages`), body);
  }

  assign(id: number, assigneeId: number | null): Promise<DeskConversation> {
    return this.#call('POST', this.#account_(`/conversations/${id}/assignments`), { assignee_id: assigneeId });
  }

  setStatus(id: number, status: 'open' | 'pending' | 'resolved'): Promise<DeskConversation> {
    return this.#call('POST', this.#account_(`/conversations/${id}/toggle_status`), { status });
  }

  markRead(id: number): Promise<DeskConversation> {
    return this.#call('POST', this.#account_(`/conversations/${id}/update_last_seen`), {});
  }

  /** A customer's file (an attachment's data_url), read with the session's token: never a URL with a credential in it. */
  async file(dataUrl: string): Promise<Blob> {
    const response = await fetch(dataUrl, { headers: { api_access_token: this.#token } });
    if (!response.ok) {
      const refusal: unknown = await response.json().catch(() => undefined);
      throw deskError(response.status, refusal, `The file could not be read (${response.status}).`);
    }
    return response.blob();
  }

  /** The AI's help to answer: a suggested reply with its sources (or why there is none), a summary, the customer's language. */
  assist(id: number): Promise<AssistResponse> {
    return this.#call('POST', this.#account_(`/conversations/${id}/assist`), {});
  }

  /** Support figures day by day for the Reports page's charts (administrators). */
  reportDays(query: { from: string; to: string; environment: ReportEnvironment }): Promise<ReportDays> {
    return this.#call('GET', this.#account_(`/reports/daily?${new URLSearchParams(query)}`));
  }

  /** Asks for a report that arrives later (administrators); it answers pending. */
  requestReport(order: ReportOrder): Promise<ReportRecord> {
    return this.#call('POST', this.#account_('/reports'), order);
  }

  report(id: string, environment: ReportEnvironment): Promise<ReportRecord> {
    return this.#call('GET', this.#account_(`/reports/${encodeURIComponent(id)}?environment=${environment}`));
  }

  /** A ready report's file, read with the session's token (never a URL with a credential in it). */
  reportFile(id: string, environment: ReportEnvironment): Promise<Blob> {
    return this.file(this.#account_(`/reports/${encodeURIComponent(id)}/content?environment=${environment}`));
  }

  /** What the AI engine's monitors found, newest first; `after` is the page before's next. */
  findings(query: { after?: string; severity?: string }): Promise<DeskFindingPage> {
    const search = new URLSearchParams();
    if (query.after) search.set('after', query.after);
    if (query.severity) search.set('severity', query.severity);
    return this.#call('GET', this.#account_(`/findings?${search}`));
  }

  canned(search: string): Promise<{ id: number; short_code: string; content: string }[]> {
    return this.#call('GET', this.#account_(`/canned_responses?search=${encodeURIComponent(search)}`));
  }

  signOut(): Promise<void> {
    return this.#call('DELETE', '/api/v1/sessions/current');
  }
}

/**
 * The session again from its HttpOnly cookie (a new tab, a reload): the token lives only in this
 * page's memory. Undefined when there is none to resume (never signed in, signed out, expired).
 */
export async function resumeSession(): Promise<Session | undefined> {
  const response = await fetch('/api/v1/sessions/resume', { method: 'POST', headers: { 'x-parley-console': '1' } });
  return response.ok ? ((await response.json()) as Session) : undefined;
}

/** Signs in with a one-time link's token or with e-mail and password. */
export async function signIn(body: { sign_in_token: string } | { email: string; password: string }): Promise<Session> {
  const response = await fetch('/api/v1/sessions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const parsed: unknown = await response.json().catch(() => ({}));
  if (!response.ok) throw deskError(response.status, parsed, `Signing in failed (${response.status}).`);
  return parsed as Session;
}
