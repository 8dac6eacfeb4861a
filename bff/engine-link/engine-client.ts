import type { Environment } from '../../shared/environment.ts';
import {
  Conversation,
  ConversationChange,
  CreatedWebhookEndpoint,
  EventsPage,
  MeResponse,
  SendMessageResponse,
  SurveyResponseRecord,
  type SurveyResponseRequest,
  WireEvents,
  type SendMessageRequest,
} from '../../shared/index.ts';
import type { z } from 'zod';
import { KnowledgeDocument, KnowledgeList } from '../../shared/schemas/engine-knowledge.ts';
import { AssistResponse, type AssistRequest } from '../../shared/schemas/assist.ts';
import { EndCallResponse, VoiceConnectResponse, VoiceSession } from '../../shared/schemas/engine.ts';
import { Interview } from '../../shared/schemas/interviews.ts';
import { callEngine, engineFetch, type EngineFetch } from './engine-call.ts';
import { engineReports, type EngineReports } from './engine-reports.ts';
import { uploadEngineMedia, type UploadedMedium } from './engine-media.ts';

// What another engine sends may hold events of types added later: those are left out, never a failed page (SPEC Events rule 9).
const SendMessageAnswer = SendMessageResponse.extend({ events: WireEvents });
const ChangeAnswer = ConversationChange.extend({ events: WireEvents });
const FeedPage = EventsPage.extend({ events: WireEvents });

export { callEngine, EngineCallError, engineFetch, type EngineFetch, type EngineTransport } from './engine-call.ts';

export interface EngineClientOptions {
  /** Where the engine's `/v1` lives, e.g. `http://127.0.0.1:8081`. */
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
  fetch?: EngineFetch;
}

/** The BFF's one way to the engine: HTTP only, exactly as it would reach a hosted engine. */
export class EngineClient {
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #timeoutMs: number;
  readonly #fetch: EngineFetch;
  /** The environment the key opens, by its prefix (`service_test_` sandbox, `service_live_` live). */
  readonly environment: Environment;

  constructor(options: EngineClientOptions) {
    const url = new URL(options.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`the engine URL must be http(s), got ${options.baseUrl}`);
    this.#baseUrl = url.href.replace(/\/$/, '');
    this.#apiKey = options.apiKey;
    this.environment = options.apiKey.startsWith('service_live_') ? 'live' : 'sandbox';
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#fetch = options.fetch ?? engineFetch;
  }

  openConversation(customerRef: string, idempotencyKey?: string): Promise<Conversation> {
    return this.#call('POST', '/v1/conversations', Conversation, { customer_ref: customerRef }, idempotencyKey);
  }

  /** Opens a conversation in which the AI runs an interview (issue 29); the answer holds its first words. */
  openInterviewSession(
    interviewId: string,
    session: { customer_ref: string; locale?: string | undefined },
    idempotencyKey?: string,
  ): Promise<ConversationChange> {
    return this.#call(
      'POST',
      `/v1/interviews/${encodeURIComponent(interviewId)}/sessions`,
      ChangeAnswer,
      session,
      idempotencyKey,
    );
  }

  /** With `onDelta`, asks for the reply streamed (server-sent events) and passes each piece on as the AI writes it. */
  sendMessage(
    conversationId: string,
    message: SendMessageRequest,
    idempotencyKey?: string,
    onDelta?: (text: string) => void,
  ): Promise<SendMessageResponse> {
    return this.#call(
      'POST',
      `/v1/conversations/${encodeURIComponent(conversationId)}/messages`,
      SendMessageAnswer,
      message,
      idempotencyKey,
      onDelta,
    );
  }

  close(conversationId: string, idempotencyKey?: string): Promise<ConversationChange> {
    return this.#call(
      'POST',
      `/v1/conversations/${encodeURIComponent(conversationId)}/close`,
      ChangeAnswer,
      {},
      idempotencyKey,
    );
  }

  /** Hands the conversation to people (a person answers from the helpdesk). */
  handover(conversationId: string, reason: string, idempotencyKey?: string): Promise<ConversationChange> {
    return this.#call(
      'POST',
      `/v1/conversations/${encodeURIComponent(conversationId)}/handover`,
      ChangeAnswer,
      { reason },
      idempotencyKey,
    );
  }

  /** Gives the conversation back to the AI. */
  handback(conversationId: string, idempotencyKey?: string): Promise<ConversationChange> {
    return this.#call(
      'POST',
      `/v1/conversations/${encodeURIComponent(conversationId)}/handback`,
      ChangeAnswer,
      {},
      idempotencyKey,
    );
  }

  /** Relays a person's answer to the customer. */
  humanMessage(
    conversationId: string,
    message: { text: string; author_name?: string | undefined; author_ref?: string | undefined },
    idempotencyKey?: string,
  ): Promise<ConversationChange> {
    return this.#call(
      'POST',
      `/v1/conversations/${encodeURIComponent(conversationId)}/human-messages`,
      ChangeAnswer,
      message,
      idempotencyKey,
    );
  }

  /** The customer's answer to the conversation's satisfaction survey (the engine emits survey.response for a new or changed one). */
  surveyResponse(
    conversationId: string,
    answer: SurveyResponseRequest,
    idempotencyKey?: string,
  ): Promise<SurveyResponseRecord> {
    return this.#call(
      'POST',
      `/v1/conversations/${encodeURIComponent(conversationId)}/survey`,
      SurveyResponseRecord,
      answer,
      idempotencyKey,
    );
  }

  /** Assist for a person: a suggested reply, a summary and the customer's language (an improved draft with `draft`); it changes nothing. */
  assist(conversationId: string, request: AssistRequest): Promise<AssistResponse> {
    return this.#call(
      'POST',
      `/v1/conversations/${encodeURIComponent(conversationId)}/assist`,
      AssistResponse,
      request,
    );
  }

  /** The engine's reports on this client's key: figures by day, reports that arrive later, their files. */
  reports(): EngineReports {
    return engineReports({
      baseUrl: this.#baseUrl,
      bearer: this.#apiKey,
      timeoutMs: this.#timeoutMs,
      fetch: this.#fetch,
    });
  }

  /** The same engine, reached with another API key (to check a site's server's own key). */
  withKey(apiKey: string): EngineClient {
    return new EngineClient({ baseUrl: this.#baseUrl, apiKey, timeoutMs: this.#timeoutMs, fetch: this.#fetch });
  }

  events(after: string | undefined, limit = 100): Promise<EventsPage> {
    const query = new URLSearchParams({ limit: String(limit) });
    if (after) query.set('after', after);
    return this.#call('GET', `/v1/events?${query}`, FeedPage);
  }

  me(): Promise<MeResponse> {
    return this.#call('GET', '/v1/me', MeResponse);
  }

  /** Has the engine post the key's account's events (of the key's environment) to `url`; the answer holds the signing secret, shown only now. */
  createWebhookEndpoint(url: string, description: string): Promise<CreatedWebhookEndpoint> {
    return this.#call('POST', '/v1/webhook-endpoints', CreatedWebhookEndpoint, { url, description });
  }

  /** A page of the account's approved knowledge documents (the widget's help search), oldest first. */
  approvedKnowledge(after?: string): Promise<KnowledgeList> {
    const query = new URLSearchParams({ approved: 'true', limit: '100' });
    if (after) query.set('after', after);
    return this.#call('GET', `/v1/knowledge?${query}`, KnowledgeList);
  }

  /** One knowledge document, approved or not: the caller decides what a customer may see. */
  knowledgeDocument(id: string): Promise<KnowledgeDocument> {
    return this.#call('GET', `/v1/knowledge/${encodeURIComponent(id)}`, KnowledgeDocument);
  }

  /** One research interview of the key's environment (issue 29); the engine's 404 for one unknown or deleted. */
  interview(id: string): Promise<Interview> {
    return this.#call('GET', `/v1/interviews/${encodeURIComponent(id)}`, Interview);
  }

  /** A customer's voice note into a conversation (issue 30): the engine transcribes it and the AI answers it. */
  uploadMedia(
    conversationId: string,
    file: { bytes: Uint8Array; name: string; type: string },
    idempotencyKey: string,
  ): Promise<UploadedMedium> {
    const transport = { baseUrl: this.#baseUrl, bearer: this.#apiKey, timeoutMs: this.#timeoutMs };
    return uploadEngineMedia(transport, conversationId, file, idempotencyKey);
  }

  /** A single-use voice session token for the conversation (issue 30): a call with a person begins with it. */
  openVoiceSession(conversationId: string): Promise<z.output<typeof VoiceSession>> {
    return this.#call(
      'POST',
      `/v1/conversations/${encodeURIComponent(conversationId)}/voice-sessions`,
      VoiceSession,
      {},
    );
  }

  /** Uses the token once: the engine begins the call (`call.started`) and names it. */
  connectVoiceSession(token: string, mode: 'person' | 'ai'): Promise<z.output<typeof VoiceConnectResponse>> {
    return this.#call('POST', '/v1/voice-sessions/connect', VoiceConnectResponse, { token, mode });
  }

  /** Ends the call (`call.ended` with its duration, who ended it and, when the BFF ended it for one, why). */
  endCall(
    callId: string,
    endedBy: 'customer' | 'person' | 'network',
    reason?: 'rang_out' | 'too_long' | 'node_gone',
  ): Promise<z.output<typeof EndCallResponse>> {
    const body = reason ? { ended_by: endedBy, reason } : { ended_by: endedBy };
    return this.#call('POST', `/v1/calls/${encodeURIComponent(callId)}/end`, EndCallResponse, body);
  }

  /** Where a call with the AI streams (issue 30): the engine's WebSocket `/v1/voice-sessions/stream` for `callId`. */
  voiceStreamUrl(callId: string): string {
    return `${this.#baseUrl.replace(/^http/, 'ws')}/v1/voice-sessions/stream?call_id=${encodeURIComponent(callId)}`;
  }

  #call<S extends z.ZodType>(
    method: string,
    path: string,
    schema: S,
    body?: unknown,
    idempotencyKey?: string,
    onDelta?: (text: string) => void,
  ): Promise<z.output<S>> {
    return callEngine(
      { baseUrl: this.#baseUrl, bearer: this.#apiKey, timeoutMs: this.#timeoutMs, fetch: this.#fetch },
      method,
      path,
      schema,
      body,
      idempotencyKey,
      onDelta,
    );
  }
}
