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
}

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
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
  readonly #settings: Required<Omit<LlmSettings, 'apiKey'>> & { apiKey: string | undefined };
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number) => Promise<void>;
  #failures = 0;
  #openUntil = 0;

  constructor(settings: LlmSettings, options: { fetch?: typeof fetch; sleep?: (ms: number) => Promise<void> } = {}) {
    this.#settings = { baseUrl: settings.baseUrl.replace(/\/$/, ''), model: settings.model, apiKey: settings.apiKey, timeoutMs: settings.timeoutMs ?? 20_000 };
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

  async chat(messages: readonly LlmMessage[], tools: readonly LlmTool[] = []): Promise<LlmAnswer> {
    if (this.circuitOpen) throw new LlmUnavailableError('The LLM failed repeatedly; it is not asked again for a while.');
    let lastError: unknown;
    for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
      if (attempt > 0) await this.#sleep(RETRY_DELAYS_MS[attempt - 1]!);
      try {
        const answer = await this.#once(messages, tools);
        this.#failures = 0;
        return answer;
      } catch (error) {
        lastError = error;
        if (error instanceof PermanentError) break;
      }
    }
    this.#failures += 1;
    if (this.#failures >= FAILURES_TO_OPEN) this.#openUntil = Date.now() + OPEN_FOR_MS;
    throw new LlmUnavailableError(`The LLM did not answer: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
  }

  async #once(messages: readonly LlmMessage[], tools: readonly LlmTool[]): Promise<LlmAnswer> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.#settings.apiKey) headers['authorization'] = `Bearer ${this.#settings.apiKey}`;
    const body = { model: this.#settings.model, messages, temperature: 0.2, ...(tools.length ? { tools } : {}) };
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
    const payload = (await response.json()) as {
      choices?: { message?: { content?: string | null; tool_calls?: LlmToolCall[] } }[];
      usage?: { prompt_tokens?: number; completion_tokens?: number };
    };
    const message = payload.choices?.[0]?.message;
    if (!message) throw new PermanentError('the answer has no choices[0].message');
    return {
      content: message.content ?? '',
      toolCalls: (message.tool_calls ?? []).filter((call) => call?.type === 'function' && typeof call.function?.name === 'string'),
      usage: { promptTokens: payload.usage?.prompt_tokens ?? 0, completionTokens: payload.usage?.completion_tokens ?? 0 },
    };
  }
}

class PermanentError extends Error {}
