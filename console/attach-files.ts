/**
 * Files a person attaches to an answer (issue 31): picked with the button, pasted, or dropped. The
 * BFF checks them by their bytes (PNG, JPEG, GIF, WebP, PDF; its size caps) and says why it refuses
 * one; here only the count is held to the BFF's (Chatwoot's 15), so nothing is sent that must fail.
 */

/** At most this many files with one message (`MAX_FILES_PER_MESSAGE` of the BFF). */
export const MAX_FILES = 15;

/** What the file picker offers: the kinds the BFF takes from people. */
export const ACCEPTED = 'image/png,image/jpeg,image/gif,image/webp,application/pdf';

/** The files picked so far and new ones, the same file (name, size, time) once, at most `MAX_FILES`. */
export function addFiles(picked: readonly File[], added: readonly File[]): File[] {
  const key = (file: File) => `${file.name}|${file.size}|${file.lastModified}`;
  const seen = new Set(picked.map(key));
  const fresh = added.filter((file) => !seen.has(key(file)) && seen.add(key(file)));
  return [...picked, ...fresh].slice(0, MAX_FILES);
}

/** Chatwoot's form for `POST …/conversations/{id}/messages` with files. */
export function attachForm(files: readonly File[], content: string, isPrivate: boolean, echoId: string): FormData {
  const form = new FormData();
  if (content) form.append('content', content);
  form.append('private', String(isPrivate));
  form.append('echo_id', echoId);
  for (const file of files) form.append('attachments[]', file, file.name);
  return form;
}

/** The files a paste or a drop carries (none for text). */
export const filesOf = (data: DataTransfer | null): File[] => (data ? [...data.files] : []);
