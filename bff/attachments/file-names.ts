import { attachmentKind, type MediaType } from '../../shared/server/index.ts';

/** The extension a file of each checked type is shown with, whatever its sender called it. */
const EXTENSION: Record<MediaType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'audio/ogg': 'ogg',
  'audio/webm': 'weba',
  'audio/mp4': 'm4a',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
};

/** The name a file with nothing left of its own is given. */
const FALLBACK_NAME = { image: 'photo', file: 'file', audio: 'voice-note', video: 'video' } as const;

export const extensionOf = (type: MediaType): string => EXTENSION[type];

/** Longest name kept, extension included. */
const MAX_NAME = 100;

/**
 * A file's name as sent, made safe to show and to put in a Content-Disposition header: no folder
 * (`C:\fakepath\x.png`, `../x`), no control or bidirectional-override characters (which can make
 * `gpj.exe` read as `exe.jpg`), no quotes or backslashes, at most 100 characters, and the
 * extension of the type its bytes were checked to be. A name with nothing left is `photo.jpg`,
 * `file.pdf`, `voice-note.ogg` or `video.mp4`.
 *
 * @example safeFileName('C:\\fakepath\\IMG 1234.JPEG', 'image/jpeg') // 'IMG 1234.jpg'
 */
export function safeFileName(raw: string, type: MediaType): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"\\]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  const stem = cleaned.replace(/\.[^.]{1,10}$/, '').trim();
  const extension = EXTENSION[type];
  const kept = [...stem]
    .slice(0, MAX_NAME - extension.length - 1)
    .join('')
    .trim();
  return `${kept || FALLBACK_NAME[attachmentKind(type)]}.${extension}`;
}
