import { v1Error } from '../../shared/client-error.ts';
import type {
  MessagesPage,
  WidgetConfig,
  WidgetConversation,
  WidgetMessage,
  WidgetSession,
  WidgetStart,
} from '../../shared/index.ts';
import { requestStart, startForm, type StartRequest } from '../protocol.ts';

/**
 * The widget's HTTP calls to the BFF. Credentials travel in the Authorization header, never in URLs.
 * A refusal throws `ClientError` with the code of its body.
 */
export function createApi(baseUrl: string, started?: StartRequest) {
  const call = <T>(method: string, path: string, credential: string, body?: unknown): Promise<T> =>
    read<T>(
      fetch(new URL(path, baseUrl), {
        method,
        headers: {
          authorization: `Bearer ${credential}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? null : JSON.stringify(body),
      }),
    );
  async function read<T>(answer: Promise<Response>): Promise<T> {
    const response = await answer;
    if (response.status === 204) return undefined as T;
    const payload: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const wait = Number(response.headers.get('retry-after'));
      throw v1Error(response.status, payload, wait > 0 ? wait : undefined);
    }
    return payload as T;
  }
  const conversation = (id: string) => `v1/widget/conversations/${encodeURIComponent(id)}`;

  return {
    /** The browser's time zone names the visitor for the people ("Visitor from Berlin"). */
    createSession: (siteKey: string, previousToken?: string) =>
      call<WidgetSession>('POST', 'v1/widget-sessions', siteKey, {
        token: previousToken,
        time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      }),
    /**
     * What the chat shows when it opens, in one request without a preflight (issue 34): the loader's,
     * made while this code loaded, when it asked the same; else asked now.
     */
    start(token: string, conversationId: string | undefined): Promise<WidgetStart> {
      const early = started;
      started = undefined;
      const form = startForm(token, conversationId);
      return read(early?.form === `${form}` ? early.answer : requestStart(baseUrl, form).answer);
    },
    endSession: (token: string) => call<void>('DELETE', 'v1/widget-sessions/current', token),
    config: (token: string, locale: string) => call<WidgetConfig>('GET', `v1/widget/config?locale=${locale}`, token),
    call,
    conversations: (token: string) =>
      call<{ conversations: WidgetConversation[] }>('GET', 'v1/widget/conversations', token),
    openConversation: (token: string, contact: { name?: string; email?: string; locale?: string } = {}) =>
      call<WidgetConversation>('POST', 'v1/widget/conversations', token, contact),
    messages: (token: string, id: string, after: number) =>
      call<MessagesPage>('GET', `${conversation(id)}/messages?after=${after}`, token),
    /** `socketId`: this tab's socket, which then gets no push of its own message. */
    send: (token: string, id: string, text: string, messageId: string, socketId?: string) =>
      call<WidgetMessage>('POST', `${conversation(id)}/messages`, token, {
        text,
        message_id: messageId,
        socket_id: socketId,
      }),
    read: (token: string, id: string, lastReadId: number) =>
      call<{ last_read_id: number; unread: number }>('POST', `${conversation(id)}/read`, token, {
        last_read_id: lastReadId,
      }),
    close: (token: string, id: string) => call<WidgetConversation>('POST', `${conversation(id)}/close`, token, {}),
    survey: (token: string, id: string, rating: number, comment: string) =>
      call<{ rating: number }>('POST', `${conversation(id)}/survey`, token, { rating, comment }),
  };
}

export type Api = ReturnType<typeof createApi>;
