import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '../../shared/server/index.ts';
import { checkKey, type AttachmentStorage } from './storage.ts';

/**
 * Bytes as files in one folder (`DATA_DIR/attachments/`), one file per key, readable by this
 * user only. A file is written beside its place and renamed into it, so a reader never sees half
 * of one, and a crash mid-write leaves only a temporary file behind.
 */
export class FileAttachmentStorage implements AttachmentStorage {
  readonly kind = 'files';
  readonly #dir: string;
  #made = false;

  constructor(dir: string) {
    this.#dir = dir;
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const path = this.#path(key);
    if (!this.#made) makePrivateFolder(this.#dir);
    this.#made = true;
    const temporary = `${path}.${randomBytes(6).toString('hex')}.part`;
    try {
      await writeFile(temporary, bytes, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.#path(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.#path(key), { force: true });
  }

  #path(key: string): string {
    return join(this.#dir, checkKey(key));
  }
}
