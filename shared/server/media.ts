import type { Context } from 'koa';
import { ParleyError } from '../errors.ts';
import { readRawBody } from './http.ts';
import { AUDIO_TYPES, kindOf, MEDIA_KIND_CAPS, sniffAudioVideo, VIDEO_TYPES } from './audio-video.ts';

/**
 * What Parley accepts as an attachment or a medium, checked by the bytes themselves and never by a
 * file's name or the type its sender declared: images a browser shows without help (PNG, JPEG,
 * GIF, WebP), PDF, and voice notes and videos (audio-video.ts). SVG is refused (it is a document
 * that can run script), as is everything else.
 */
export const MEDIA_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  ...AUDIO_TYPES,
  ...VIDEO_TYPES,
] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** 10 MB: a phone's photo fits, a video does not. */
export const DEFAULT_MEDIA_LIMIT = 10 * 1024 * 1024;

/**
 * An image's pixels must fit in this many (40 megapixels, more than any phone's camera): a small
 * file that unpacks to a huge picture is a decompression bomb for whoever shows or reads it.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** Nor may either side pass this many pixels (browsers and image libraries stop near here). */
export const MAX_IMAGE_SIDE = 16_384;

export interface MediaFacts {
  type: MediaType;
  size: number;
  /** For images. */
  width?: number;
  height?: number;
  /** For recordings whose bytes state it (audio-video.ts), in seconds. */
  durationS?: number;
}

/** The kind of `bytes`, checked by content; a 415 when it is none of MEDIA_TYPES, a 413 when too big, a 422 for a bomb. */
export function inspectMedia(bytes: Uint8Array, limit = DEFAULT_MEDIA_LIMIT): MediaFacts {
  if (bytes.length === 0) throw new ParleyError('invalid_request', 'The file is empty.');
  if (bytes.length > limit) throw new ParleyError('payload_too_large', `The file is larger than ${limit} bytes.`);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const facts = sniff(buffer);
  if (!facts)
    throw new ParleyError(
      'unsupported_media_type',
      'Only PNG, JPEG, GIF, WEBP and PDF files, voice notes (Ogg/Opus, WebM, M4A, MP3, WAV) and videos (MP4, WebM) are accepted; this file is none of them.',
    );
  checkRecording(facts, limit, bytes.length);
  if (facts.width !== undefined && facts.height !== undefined) {
    if (facts.width < 1 || facts.height < 1) throw new ParleyError('unprocessable', 'The image says it has no pixels.');
    if (
      facts.width > MAX_IMAGE_SIDE ||
      facts.height > MAX_IMAGE_SIDE ||
      facts.width * facts.height > MAX_IMAGE_PIXELS
    ) {
      throw new ParleyError(
        'unprocessable',
        `The image is ${facts.width}×${facts.height} pixels; at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels and ${MAX_IMAGE_SIDE} pixels a side are accepted.`,
      );
    }
  }
  return { ...facts, size: bytes.length };
}

function sniff(bytes: Buffer): Omit<MediaFacts, 'size'> | undefined {
  if (starts(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    // The IHDR chunk comes first: width and height, big-endian, at 16 and 20.
    if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
    return { type: 'image/png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (starts(bytes, [0xff, 0xd8, 0xff])) return jpeg(bytes);
  const head = bytes.toString('latin1', 0, 6);
  if (head === 'GIF87a' || head === 'GIF89a') {
    if (bytes.length < 10) return undefined;
    return { type: 'image/gif', width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  }
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return webp(bytes);
  // %PDF- within the first KB, as PDF readers accept it.
  if (bytes.subarray(0, 1024).includes('%PDF-')) return { type: 'application/pdf' };
  return sniffAudioVideo(bytes);
}

/** A voice note or a video within its kind's caps (MEDIA_KIND_CAPS): 413 when too big, 422 when too long. */
function checkRecording(facts: Omit<MediaFacts, 'size'>, limit: number, size: number): void {
  const kind = kindOf(facts.type);
  if (!kind) return;
  const caps = MEDIA_KIND_CAPS[kind];
  const label = kind === 'audio' ? 'A voice note or audio file' : 'A video';
  if (size > caps.bytes)
    throw new ParleyError('payload_too_large', `${label} may be at most ${Math.min(limit, caps.bytes)} bytes.`);
  if (facts.durationS !== undefined && facts.durationS > caps.seconds) {
    throw new ParleyError(
      'unprocessable',
      `${label} may last at most ${caps.seconds} seconds; this one lasts ${Math.round(facts.durationS)}.`,
    );
  }
}

function starts(bytes: Buffer, magic: number[]): boolean {
  return bytes.length >= magic.length && magic.every((byte, index) => bytes[index] === byte);
}

/** A JPEG's size is in its first start-of-frame segment; the markers before it are skipped by their lengths. */
function jpeg(bytes: Buffer): Omit<MediaFacts, 'size'> | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    const startOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (startOfFrame)
      return { type: 'image/jpeg', height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    if (length < 2) return undefined;
    at += 2 + length;
  }
  return undefined;
}

function webp(bytes: Buffer): Omit<MediaFacts, 'size'> | undefined {
  if (bytes.length < 30) return undefined;
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8X')
    return { type: 'image/webp', width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return { type: 'image/webp', width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ')
    return { type: 'image/webp', width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  return undefined;
}

/** One file of a multipart body. */
export interface UploadedFile {
  field: string;
  name: string;
  bytes: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: UploadedFile[];
}

/**
 * The most parts a form may have: the files of one message (15) and a few text fields, with room
 * to spare. Counted before the form is read, so thousands of tiny parts cost a scan, not a parse.
 */
export const MAX_MULTIPART_PARTS = 64;

/** How many parts a multipart body has, by its boundary's delimiter lines (an unreadable boundary counts none: the parser refuses it). */
function countParts(raw: Buffer, contentType: string): number {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  const delimiter = boundary && Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  if (!delimiter) return 0;
  let count = 0;
  for (let at = raw.indexOf(delimiter); at !== -1; at = raw.indexOf(delimiter, at + delimiter.length)) count += 1;
  // The last delimiter closes the form.
  return Math.max(0, count - 1);
}

/**
 * Reads a `multipart/form-data` body of at most `limit` bytes in all. A compressed body
 * (Content-Encoding other than identity) is refused before a byte is read: inflating what a
 * stranger sent is how a small request becomes a huge one. A text field given twice is refused;
 * files may share a field name (Chatwoot's `attachments[]`).
 */
export async function readMultipart(ctx: Context, limit: number): Promise<MultipartBody> {
  const encoding = ctx.get('content-encoding').trim().toLowerCase();
  if (encoding && encoding !== 'identity')
    throw new ParleyError(
      'unsupported_media_type',
      `Compressed request bodies (Content-Encoding: ${encoding}) are not accepted; send the files as they are.`,
    );
  if (!ctx.is('multipart/form-data'))
    throw new ParleyError('unsupported_media_type', 'Send the files as multipart/form-data.');
  const raw = await readRawBody(ctx, limit);
  const parts = countParts(raw, ctx.get('content-type'));
  if (parts > MAX_MULTIPART_PARTS) {
    throw new ParleyError(
      'invalid_request',
      `A form may have at most ${MAX_MULTIPART_PARTS} parts; this one has ${parts}.`,
      { problems: [{ field: 'form', message: `more than ${MAX_MULTIPART_PARTS} parts` }] },
    );
  }
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(raw), { headers: { 'content-type': ctx.get('content-type') } }).formData();
  } catch {
    throw new ParleyError('invalid_request', 'The multipart body could not be read.');
  }
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  for (const [field, value] of form) {
    if (typeof value === 'string') {
      if (Object.hasOwn(fields, field))
        throw new ParleyError('invalid_request', `The form field ${field} is given twice.`, {
          problems: [{ field, message: 'given twice' }],
        });
      fields[field] = value;
    } else {
      files.push({ field, name: value.name.slice(0, 255), bytes: Buffer.from(await value.arrayBuffer()) });
    }
  }
  return { fields, files };
}
