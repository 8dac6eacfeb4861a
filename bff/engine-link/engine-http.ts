/**
 * The HTTP exchange of the engine client (engine-client.ts) as it sees it: what it asks of a call,
 * what it reads of the answer, and an answer of node:http read in that shape.
 */
import type { IncomingMessage } from 'node:http';

/** What the client asks of an HTTP call to the engine. */
export interface EngineRequest {
  method: string;
  headers: Record<string, string>;
  body: string | null;
  /** The whole call, its answer's body included, ends in failure after this long. */
  timeoutMs: number;
}

/** What the client reads of the engine's answer: a subset of `Response`'s. */
export interface EngineResponse {
  ok: boolean;
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  /** The body as it arrives, for a streamed answer (an async iterable of bytes). */
  body: unknown;
}

/** An answer read from node:http: only what `EngineResponse` needs, without a web stream. */
export class NodeResponse implements EngineResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body: IncomingMessage;

  constructor(message: IncomingMessage) {
    this.status = message.statusCode ?? 0;
    this.ok = this.status >= 200 && this.status < 300;
    this.body = message;
    this.headers = {
      get: (name) => {
        const value = message.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    };
  }

  text(): Promise<string> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      this.body.on('data', (chunk: Buffer) => chunks.push(chunk));
      this.body.once('end', () =>
        resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')),
      );
      this.body.once('error', reject);
      // Cut off before its end (the call's deadline): an IncomingMessage then closes without 'end'.
      this.body.once('close', () => reject(new Error('The answer was cut off.')));
    });
  }
}
