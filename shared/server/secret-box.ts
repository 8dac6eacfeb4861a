import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseKeyPairs } from './key-pairs.ts';
import { makePrivateFolder, PRIVATE_FILE_MODE } from './private-files.ts';
import type { Queryable } from './sql.ts';

/**
 * Secrets the services must keep to use them again (webhook signing secrets, session keys made on
 * first start, an engine key) are stored sealed: AES-256-GCM under a key from `SECRETS_KEYS`
 * (`kid:base64url` pairs; the first seals, all open, so keys rotate: put the new one first, and
 * keep the old one until every sealed value was written again). Without it, a single node keeps a
 * key of its own in `DATA_DIR/secrets.key` (readable by its owner only), so the database alone
 * gives no secret away.
 *
 * @example
 * const box = new SecretBox(parseSecretKeys('k1:…'));
 * box.open(box.seal('whsec_…')) // 'whsec_…'
 */
export interface SecretKey {
  kid: string;
  key: Buffer;
}

const PREFIX = 'sealed:v1:';

/** Parses `kid:base64url-key` pairs separated by commas; each key is 32 bytes; the first one seals. */
export function parseSecretKeys(text: string): SecretKey[] {
  const keys = parseKeyPairs(
    text,
    'secrets key',
    (kid, bytes) => bytes.length === 32 || `secrets key ${kid} is ${bytes.length} bytes; it must be 32 (AES-256)`,
  );
  return keys.map(({ kid, bytes }) => ({ kid, key: bytes }));
}

export class SecretBox {
  readonly #keys: readonly SecretKey[];

  constructor(keys: readonly SecretKey[]) {
    if (keys.length === 0) throw new TypeError('SecretBox needs at least one key');
    this.#keys = keys;
  }

  /** `sealed:v1:<kid>:<iv>:<ciphertext and tag>`, all base64url. */
  seal(plain: string): string {
    const { kid, key } = this.#keys[0]!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${kid}:${iv.toString('base64url')}:${sealed.toString('base64url')}`;
  }

  /** Whether a stored value is sealed with the key that seals now (not plain, not under an older key). */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`${PREFIX}${this.#keys[0]!.kid}:`);
  }

  /**
   * A keyed hash to find a value by without keeping it (HMAC-SHA-256 under a key derived from the
   * sealing key, so the AES key is used for nothing else): `<kid>:<base64url>`, under the key that
   * seals now.
   */
  lookupHash(plain: string): string {
    return this.#lookupHashUnder(this.#keys[0]!, plain);
  }

  /** The value's lookup hash under every key, newest first: values hashed before a rotation are found too. */
  lookupHashes(plain: string): string[] {
    return this.#keys.map((key) => this.#lookupHashUnder(key, plain));
  }

  /** Whether a stored lookup hash is under the key that seals now. */
  isCurrentHash(stored: string): boolean {
    return stored.startsWith(`${this.#keys[0]!.kid}:`);
  }

  #lookupHashUnder({ kid, key }: SecretKey, plain: string): string {
    const hashKey = createHmac('sha256', key).update('parley lookup hash').digest();
    return `${kid}:${createHmac('sha256', hashKey).update(plain, 'utf8').digest('base64url')}`;
  }

  /** The plain value; a value stored before sealing began comes back as it is. */
  open(stored: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    const [kid, iv, sealed] = stored.slice(PREFIX.length).split(':');
    const found = this.#keys.find((candidate) => candidate.kid === kid);
    if (!found || !iv || !sealed)
      throw new Error(`a secret is sealed with key ${kid ?? '?'}, which SECRETS_KEYS does not hold`);
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', found.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
  }
}

/** A column of a room's store that holds sealed values: its table, the row's key column, and which rows (a fixed SQL condition). */
export interface SealedColumn {
  table: string;
  key: string;
  column: string;
  where?: string;
}

/**
 * Seals again, under the key that seals now, every value of these columns that is plain (stored
 * before sealing began) or sealed under an older key: run at start, so a rotation needs no
 * command (put the new key first and restart; drop the old key once every node has started).
 * Each row is changed only if it still holds what was read, so nodes starting together are safe.
 * Gives how many values were sealed again.
 */
export async function resealStored(db: Queryable, box: SecretBox, columns: readonly SealedColumn[]): Promise<number> {
  let resealed = 0;
  for (const { table, key, column, where } of columns) {
    const rows = await db.query<{ k: string | number; v: string }>(
      `SELECT ${key} AS k, ${column} AS v FROM ${table}${where ? ` WHERE ${where}` : ''}`,
    );
    for (const row of rows) {
      if (box.isCurrent(row.v)) continue;
      const changed = await db.query(
        `UPDATE ${table} SET ${column} = $1 WHERE ${key} = $2 AND ${column} = $3 RETURNING 1`,
        [box.seal(box.open(row.v)), row.k, row.v],
      );
      resealed += changed.length;
    }
  }
  return resealed;
}

/** For `memory://`: one key for the whole process, so a service restarted in it (tests do) opens what it sealed. */
let memoryKey: Buffer | undefined;

/**
 * The box of a process: `SECRETS_KEYS` when set; otherwise the key in `<dataDir>/secrets.key`,
 * made on first start; for `memory://` (nothing kept on disk) a key of this process only.
 */
export function openSecretBox(configured: SecretKey[] | undefined, dataDir: string): SecretBox {
  if (configured) return new SecretBox(configured);
  if (dataDir.startsWith('memory://')) return new SecretBox([{ kid: 'memory', key: (memoryKey ??= randomBytes(32)) }]);
  const file = join(dataDir, 'secrets.key');
  // DATA_DIR itself is the user's alone: whoever may write in it could put a key of their own here.
  makePrivateFolder(dataDir);
  if (!existsSync(file)) {
    // wx: two processes starting at once on an empty folder keep the first key written.
    try {
      writeFileSync(file, `local:${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: PRIVATE_FILE_MODE });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  chmodSync(file, PRIVATE_FILE_MODE);
  return new SecretBox(parseSecretKeys(readFileSync(file, 'utf8').trim()));
}
