import { ParleyError } from '../../shared/index.ts';
import { sha256Hex, signV4, type SigV4Credentials } from './sigv4.ts';
import { checkKey, type AttachmentStorage } from './storage.ts';

/** A bucket of an S3-compatible store: its URL (with an optional path prefix) and the keys that may write it. */
export interface S3Settings {
  /**
   * The bucket as a URL, objects going below it: `https://my-bucket.s3.eu-west-1.amazonaws.com`,
   * `http://127.0.0.1:9000/my-bucket` (path style, MinIO), `…/my-bucket/parley` (a prefix).
   */
  bucketUrl: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface S3Options {
  fetch?: typeof fetch;
  now?: () => Date;
  /** How long one call to the store may take (30 s). */
  timeoutMs?: number;
}

/**
 * Bytes as objects of an S3-compatible bucket: PUT, GET and DELETE of one object each, signed
 * with SigV4 (`sigv4.ts`) over `fetch`. Several BFF nodes share the bucket, as they share the store.
 */
export class S3AttachmentStorage implements AttachmentStorage {
  readonly kind = 's3';
  readonly #base: string;
  readonly #credentials: SigV4Credentials;
  readonly #fetch: typeof fetch;
  readonly #now: () => Date;
  readonly #timeoutMs: number;

  constructor(
    settings: S3Settings,
    { fetch: fetchImpl = globalThis.fetch, now = () => new Date(), timeoutMs = 30_000 }: S3Options = {},
  ) {
    this.#base = settings.bucketUrl.replace(/\/+$/, '');
    this.#credentials = {
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      region: settings.region,
      service: 's3',
    };
    this.#fetch = fetchImpl;
    this.#now = now;
    this.#timeoutMs = timeoutMs;
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    const response = await this.#call('PUT', key, bytes, { 'content-type': contentType });
    if (!response.ok) throw this.#refused('PUT', response.status);
  }

  async get(key: string): Promise<Buffer | undefined> {
    const response = await this.#call('GET', key);
    if (response.status === 404) return undefined;
    if (!response.ok) throw this.#refused('GET', response.status);
    return Buffer.from(await response.arrayBuffer());
  }

  async delete(key: string): Promise<void> {
    const response = await this.#call('DELETE', key);
    if (!response.ok && response.status !== 404) throw this.#refused('DELETE', response.status);
  }

  async #call(method: string, key: string, body?: Buffer, headers: Record<string, string> = {}): Promise<Response> {
    const url = new URL(`${this.#base}/${checkKey(key)}`);
    const signed = signV4({ method, url, headers, payloadHash: sha256Hex(body ?? '') }, this.#credentials, this.#now());
    try {
      const response = await this.#fetch(url, {
        method,
        headers: signed,
        body: body ? new Uint8Array(body) : null,
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      // Read the error body to the end, so the connection can be used again.
      if (!response.ok) await response.arrayBuffer().catch(() => undefined);
      return response;
    } catch {
      throw new ParleyError(
        'upstream_unavailable',
        'The attachment store could not be reached; try again in a moment.',
      );
    }
  }

  #refused(method: string, status: number): ParleyError {
    return new ParleyError(
      'upstream_unavailable',
      `The attachment store refused a ${method} (HTTP ${status}); try again in a moment.`,
    );
  }
}
