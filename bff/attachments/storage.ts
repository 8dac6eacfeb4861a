/**
 * Where the BFF keeps attachments' bytes. The rows (who sent what, its checked type and size) are
 * in the BFF's store (`store/attachments.ts`); a storage holds only bytes under keys the BFF made,
 * never under a file's own name. Three kinds: files under `DATA_DIR/attachments/` (the default),
 * memory (`DATA_DIR=memory://`, tests and the in-memory demo) and an S3-compatible bucket.
 */
export interface AttachmentStorage {
  readonly kind: 'files' | 'memory' | 's3';
  /** Keeps `bytes` under `key`, replacing what was there. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes kept under `key`, or undefined when there are none. */
  get(key: string): Promise<Buffer | undefined>;
  /** Forgets `key`; deleting what is not there is no error (erasure may run twice). */
  delete(key: string): Promise<void>;
}

/** A key the BFF made (`newAttachmentKey`): letters, digits, `_` and `-`, so it is safe as a file name and in a URL. */
const KEY = /^[A-Za-z0-9_-]{16,64}$/;

/** Refuses a key the BFF did not make; a wrong key is a bug, never something a client sent. */
export function checkKey(key: string): string {
  if (!KEY.test(key))
    throw new TypeError(`An attachment key is 16-64 letters, digits, _ or -; got ${JSON.stringify(key)}.`);
  return key;
}

/** Bytes in memory: for `DATA_DIR=memory://`, which keeps nothing after the process ends. */
export class MemoryAttachmentStorage implements AttachmentStorage {
  readonly kind = 'memory';
  readonly #objects = new Map<string, Buffer>();

  async put(key: string, bytes: Buffer): Promise<void> {
    this.#objects.set(checkKey(key), Buffer.from(bytes));
  }

  async get(key: string): Promise<Buffer | undefined> {
    return this.#objects.get(checkKey(key));
  }

  async delete(key: string): Promise<void> {
    this.#objects.delete(checkKey(key));
  }

  /** How many objects are kept (tests check that an erasure or a refused upload leaves none). */
  get size(): number {
    return this.#objects.size;
  }
}
