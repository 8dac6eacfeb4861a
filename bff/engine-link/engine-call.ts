/**
 * One call from the BFF to the engine over HTTP: the transport (node:http on kept-alive
 * connections), the answer read (JSON, or a stream of server-sent events) and checked against a
 * schema, and every failure as an EngineCallError. The engine client (engine-client.ts) and its
 * sub-clients (engine-reports.ts) make their calls through `callEngine`.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { z } from 'zod';
import { ERROR_STATUS, isErrorBody, type ErrorCode } from '../../shared/index.ts';
import { NodeResponse, type EngineRequest, type EngineResponse } from './engine-http.ts';

/**
 * A failed call to the engine. `retryable` is true when the same call may succeed later
 * (the engine was unreachable, timed out, failed, or asked us to slow down, or the first call with
 * the same Idempotency-Key is still running there).
 */
export class EngineCallError extends Error {
  readonly status: number;
  readonly code: ErrorCode | 'unreachable';
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    options: { status: number; code: ErrorCode | 'unreachable'; retryAfterMs?: number | undefined },
  ) {
    super(message);
    this.name = 'EngineCallError';
    this.status = options.status;
    this.code = options.code;
    // idempotency_key_in_use (409) is not a refusal: the engine says to retry once the first call
    // has finished. After a crash of the engine or its database that first call never finishes, and
    // the engine frees its key after a minute; refusing the message for good then would leave it
    // "failed" although the customer did nothing wrong (issue 14's chaos suite, PostgreSQL restarted).
    this.retryable =
      options.status === 0 ||
      options.status === 429 ||
      options.status >= 500 ||
      options.code === 'idempotency_key_in_use';
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** How the client makes its HTTP calls: `engineFetch` unless told otherwise (a wrapper that times or counts calls). */
export type EngineFetch = (url: string, request: EngineRequest) => Promise<EngineResponse>;

// Kept-alive connections to the engine, shared by every client of this process.
const AGENTS = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/**
 * The client's own HTTP calls: node:http on kept-alive connections. The engine's answers are small
 * JSON documents (or a stream of server-sent events), and undici's `fetch` spent about a tenth of
 * the BFF's CPU on its web streams and bookkeeping for them (docs/PERFORMANCE.md).
 */
export const engineFetch: EngineFetch = (url, { method, headers, body, timeoutMs }) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const https = target.protocol === 'https:';
    const call = (https ? httpsRequest : httpRequest)(
      target,
      { method, headers, agent: https ? AGENTS.https : AGENTS.http },
      (message) => {
        message.once('close', () => clearTimeout(deadline));
        resolve(new NodeResponse(message));
      },
    );
    // A plain timer, not AbortSignal.timeout: a signal costs about as much CPU as the rest of a call.
    const deadline = setTimeout(() => call.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref();
    call.once('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    call.end(body ?? undefined);
  });

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Reads an answer the engine streams: `delta` events go to `onDelta`; the `result` event is the
 * answer; an `error` event is the engine's refusal, thrown as an EngineCallError.
 */
async function readAnswerStream(
  response: EngineResponse,
  onDelta: (text: string) => void,
  what: string,
): Promise<unknown> {
  const decoder = new TextDecoder();
  let buffered = '';
  let result: unknown;
  const take = (block: string) => {
    const event = /^event: ?(.+)$/m.exec(block)?.[1]?.trim();
    const data = /^data: ?(.+)$/m.exec(block)?.[1];
    if (!event || data === undefined) return;
    const parsed: unknown = JSON.parse(data);
    if (event === 'delta') {
      const text = (parsed as { text?: unknown }).text;
      if (typeof text === 'string') onDelta(text);
    } else if (event === 'result') {
      result = parsed;
    } else if (event === 'error') {
      const code = isErrorBody(parsed) ? parsed.error.code : 'internal';
      throw new EngineCallError(
        isErrorBody(parsed) ? parsed.error.message : `The engine's streamed answer to ${what} failed.`,
        { status: ERROR_STATUS[code as ErrorCode] ?? 500, code: code as ErrorCode },
      );
    }
  };
  try {
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(bytes, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        take(buffered.slice(0, end));
        buffered = buffered.slice(end + 2);
      }
    }
  } catch (error) {
    if (error instanceof EngineCallError) throw error;
    throw new EngineCallError(
      `The engine's streamed answer to ${what} broke off: ${error instanceof Error ? error.message : String(error)}`,
      { status: 0, code: 'unreachable' },
    );
  }
  if (result === undefined)
    throw new EngineCallError(`The engine's streamed answer to ${what} ended without a result.`, {
      status: 0,
      code: 'unreachable',
    });
  return result;
}

/** How one call reaches the engine: where, with which bearer credential, how long it may take, and through which `fetch`. */
export interface EngineTransport {
  baseUrl: string;
  bearer: string;
  timeoutMs: number;
  fetch: EngineFetch;
}

/**
 * One call to the engine, its answer checked against `schema`: transport failures, refusals and
 * answers of an unexpected shape all become an EngineCallError (`retryable` says which may succeed later).
 */
export async function callEngine<S extends z.ZodType>(
  transport: EngineTransport,
  method: string,
  path: string,
  schema: S,
  body?: unknown,
  idempotencyKey?: string,
  onDelta?: (text: string) => void,
): Promise<z.output<S>> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${transport.bearer}`,
    accept: onDelta ? 'text/event-stream, application/json' : 'application/json',
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  let response: EngineResponse;
  try {
    response = await transport.fetch(transport.baseUrl + path, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      timeoutMs: transport.timeoutMs,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new EngineCallError(`The engine could not be reached (${method} ${path}): ${reason}`, {
      status: 0,
      code: 'unreachable',
    });
  }
  const streamed = response.ok && onDelta && response.headers.get('content-type')?.startsWith('text/event-stream');
  const payload: unknown = streamed
    ? await readAnswerStream(response, onDelta, `${method} ${path}`)
    : jsonOrUndefined(await bodyOf(response, method, path));
  if (!response.ok) {
    const retryAfterS = Number(response.headers.get('retry-after'));
    throw new EngineCallError(
      isErrorBody(payload) ? payload.error.message : `The engine answered ${response.status} to ${method} ${path}.`,
      {
        status: response.status,
        code: isErrorBody(payload) ? payload.error.code : 'internal',
        retryAfterMs: Number.isFinite(retryAfterS) && retryAfterS > 0 ? retryAfterS * 1000 : undefined,
      },
    );
  }
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    throw new EngineCallError(`The engine's answer to ${method} ${path} has an unexpected shape.`, {
      status: 502,
      code: 'internal',
    });
  }
  return parsed.data;
}

/** The answer's body; one cut off before its end (the deadline, a dropped connection) is a failure to reach the engine. */
async function bodyOf(response: EngineResponse, method: string, path: string): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw new EngineCallError(
      `The engine's answer to ${method} ${path} broke off: ${error instanceof Error ? error.message : String(error)}`,
      { status: 0, code: 'unreachable' },
    );
  }
}
