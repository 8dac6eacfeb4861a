/**
 * A client of any OpenAI-compatible chat API (`POST {LLM_BASE_URL}/chat/completions`: a local
 * llama.cpp server, Ollama, vLLM or a hosted one). Each call has a timeout and is tried again with
 * back-off when the server is busy or away; after several calls in a row fail, the circuit opens
 * and calls fail at once for a while, so the engine answers from its retrieval brain meanwhile
 * instead of making every customer wait for a timeout.
 */

export interface LlmSettings {
  /** The API's base, with its `/v1` (e.g. `http://127.0.0.1:8080/v1`). */
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  timeoutMs?: number;
  /** The model reads images (LLM_VISION): uploaded photos are described with it. */
  vision?: boolean | undefined;
}

/** A piece of a user message: text, or an image (OpenAI-compatible `image_url`, here a `data:` URL) for a model with vision. */
export type LlmContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null | LlmContentPart[];
  tool_calls?: LlmToolCall[];
  tool_call_id?: string;
}

export interface LlmToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A function the model may call: an account's action. */
export interface LlmTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface LlmAnswer {
  content: string;
  toolCalls: LlmToolCall[];
  usage: { promptTokens: number; completionTokens: number };
}

/** The LLM could not answer now (down, too slow, refusing, or the circuit is open). */
export class LlmUnavailableError extends Error {
  override readonly name = 'LlmUnavailableError';
}

const RETRY_DELAYS_MS = [250, 1_000];
/** After this many failed calls in a row the circuit opens… */
const FAILURES_TO_OPEN = 3;
/** …for this long; then one call is let through to try. */
const OPEN_FOR_MS = 30_000;

export class LlmClient {
  readonly #settings: Required<Omit<LlmSettings, 'apiKey' | 'vision'>> & { apiKey: string | undefined };
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number) => Promise<void>;
  #failures = 0;
  #openUntil = 0;

  constructor(settings: LlmSettings, options: { fetch?: typeof fetch; sleep?: (ms: number) => Promise<void> } = {}) {
    this.#settings = {
      baseUrl: settings.baseUrl.replace(/\/$/, ''),
      model: settings.model,
      apiKey: settings.apiKey,
      timeoutMs: settings.timeoutMs ?? 20_000,
    };
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  get model(): string {
    return this.#settings.model;
  }

  /** Whether calls are being refused at once after repeated failures. */
  get circuitOpen(): boolean {
    return Date.now() < this.#openUntil;
  }

  /**
   * Asks the model. With `onDelta` the answer is streamed (`stream: true`): each piece of text is
   * passed on as it arrives; once a piece has gone out, a failure is not tried again.
   */
  async chat(
    messages: readonly LlmMessage[],
    tools: readonly LlmTool[] = [],
    onDelta?: (text: string) => void,
  ): Promise<LlmAnswer> {
    if (this.circuitOpen)
      throw new LlmUnavailableError('The LLM failed repeatedly; it is not asked again for a while.');
    let lastError: unknown;
    let streamed = false;
    const passOn =
      onDelta &&
      ((text: string) => {
        streamed = true;
        onDelta(text);
      });
    for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
      if (attempt > 0) await this.#sleep(RETRY_DELAYS_MS[attempt - 1]!);
      try {
        const answer = await this.#once(messages, tools, passOn);
        this.#failures = 0;
        return answer;
      } catch (error) {
        lastError = error;
        if (error instanceof PermanentError || streamed) break;
      }
    }
    this.#failures += 1;
    if (this.#failures >= FAILURES_TO_OPEN) this.#openUntil = Date.now() + OPEN_FOR_MS;
    throw new LlmUnavailableError(
      `The LLM did not answer: ${lastError instanceof Error ? lastError.message : String(lastError)}`,
    );
  }

  async #once(
    messages: readonly LlmMessage[],
    tools: readonly LlmTool[],
    onDelta?: (text: string) => void,
  ): Promise<LlmAnswer> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.#settings.apiKey) headers['authorization'] = `Bearer ${this.#settings.apiKey}`;
    const streaming = onDelta ? { stream: true, stream_options: { include_usage: true } } : {};
    const body = {
      model: this.#settings.model,
      messages,
      temperature: 0.2,
      ...(tools.length ? { tools } : {}),
      ...streaming,
    };
    const response = await this.#fetch(`${this.#settings.baseUrl}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(this.#settings.timeoutMs),
    });
    if (!response.ok) {
      const text = (await response.text().catch(() => '')).slice(0, 300);
      const problem = `${response.status} ${text}`;
      // Busy or failing: worth another try. Anything else (a bad key, an unknown model) will not mend itself.
      throw response.status === 429 || response.status >= 500 ? new Error(problem) : new PermanentError(problem);
    }
    if (onDelta) return readStream(response, onDelta);
    const payload = (await response.json()) as {
      choices?: { message?: { content?: string | null; tool_calls?: LlmToolCall[] } }[];
      usage?: { prompt_tokens?: number; completion_tokens?: number };
    };
    const message = payload.choices?.[0]?.message;
    if (!message) throw new PermanentError('the answer has no choices[0].message');
    return {
      content: message.content ?? '',
      toolCalls: (message.tool_calls ?? []).filter(
        (call) => call?.type === 'function' && typeof call.function?.name === 'string',
      ),
      usage: {
        promptTokens: payload.usage?.prompt_tokens ?? 0,
        completionTokens: payload.usage?.completion_tokens ?? 0,
      },
    };
  }
}

class PermanentError extends Error {}

interface StreamChunk {
  choices?: {
    delta?: {
      content?: string | null;
      tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

/** Reads a streamed answer (server-sent events of `chat.completion.chunk`s), passing each piece of text on. */
async function readStream(response: Response, onDelta: (text: string) => void): Promise<LlmAnswer> {
  if (!response.body) throw new PermanentError('a streamed answer without a body');
  const decoder = new TextDecoder();
  let buffered = '';
  let content = '';
  const calls: { id: string; name: string; arguments: string }[] = [];
  const usage = { promptTokens: 0, completionTokens: 0 };
  const take = (data: string) => {
    if (data === '[DONE]') return;
    const chunk = JSON.parse(data) as StreamChunk;
    const delta = chunk.choices?.[0]?.delta;
    if (delta?.content) {
      content += delta.content;
      onDelta(delta.content);
    }
    for (const call of delta?.tool_calls ?? []) {
      const slot = (calls[call.index] ??= { id: '', name: '', arguments: '' });
      slot.id ||= call.id ?? '';
      slot.name += call.function?.name ?? '';
      slot.arguments += call.function?.arguments ?? '';
    }
    if (chunk.usage)
      Object.assign(usage, {
        promptTokens: chunk.usage.prompt_tokens ?? 0,
        completionTokens: chunk.usage.completion_tokens ?? 0,
      });
  };
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(bytes, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      if (line.startsWith('data:')) take(line.slice(5).trim());
    }
  }
  if (buffered.trim().startsWith('data:')) take(buffered.trim().slice(5).trim());
  return {
    content,
    toolCalls: calls
      .filter((call) => call?.name)
      .map((call) => ({
        id: call.id,
        type: 'function' as const,
        function: { name: call.name, arguments: call.arguments },
      })),
    usage,
  };
}
