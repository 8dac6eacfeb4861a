import type { WidgetMessage } from '../../shared/index.ts';
import { ClientError, v1Error } from '../../shared/client-error.ts';

/** What the widget sends; the BFF checks the bytes again and decides (a PDF, an image it can show, a voice note or a video). */
export const SENDABLE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'audio/ogg',
  'audio/webm',
  'audio/mp4',
  'audio/mpeg',
  'audio/wav',
  'audio/x-m4a',
  'video/mp4',
  'video/webm',
];
/** The BFF's default limit (ATTACHMENTS_MAX_BYTES); a BFF set lower still refuses with 413, which is said the same way. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export interface Upload {
  /** The stored message with its attachment. */
  done: Promise<WidgetMessage>;
  abort(): void;
}

/**
 * Sends one file into the conversation as the customer's message, over XMLHttpRequest so that the
 * upload's progress can be shown (fetch reports none). The session token goes in the header, as on
 * every widget call; `messageId` is kept by the tray, so pressing Send again after a failure cannot
 * make a second message. A `caption` (the composer's draft) goes with the file as the message's text.
 */
export function uploadFile(
  target: { token: string; baseUrl: string; conversationId: string },
  file: File,
  messageId: string,
  onProgress: (percent: number) => void,
  caption = '',
): Upload {
  const request = new XMLHttpRequest();
  const done = new Promise<WidgetMessage>((resolve, reject) => {
    const form = new FormData();
    form.append('message_id', messageId);
    form.append('file', file, file.name);
    if (caption) form.append('text', caption);
    request.open(
      'POST',
      new URL(`v1/widget/conversations/${encodeURIComponent(target.conversationId)}/attachments`, target.baseUrl),
    );
    request.setRequestHeader('authorization', `Bearer ${target.token}`);
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.floor((event.loaded * 100) / event.total));
    };
    request.onload = () => {
      if (request.status === 200 || request.status === 201) resolve(request.response as WidgetMessage);
      else reject(v1Error(request.status, request.response));
    };
    request.onerror = () => reject(new ClientError(0, 'unreachable', 'The chat could not be reached.'));
    request.onabort = () => reject(new ClientError(0, 'aborted', 'The upload was stopped.'));
    request.send(form);
  });
  return { done, abort: () => request.abort() };
}
