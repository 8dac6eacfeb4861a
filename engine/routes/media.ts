import { z } from 'zod';
import { MediaParams, MediaRecord, ParleyError, UploadMediaFields } from '../../shared/index.ts';
import { inspectMedia, MEDIA_TYPES, type ApiRoutes, type Sql, type UploadedFile } from '../../shared/server/index.ts';
import type { EngineState } from '../auth.ts';
import type { MediaWorker } from '../media/worker.ts';
import { findConversation } from '../store/conversations.ts';
import type { Caller } from '../store/environment.ts';
import { findMedia, findMediaContent, insertMedia, lockedMediaBytes } from '../store/media.ts';

const tag = 'Media';
const security = 'apiKey';

/** The most bytes of media one account keeps (MEDIA_STORAGE_MAX_BYTES), in both environments together. */
export const DEFAULT_MEDIA_STORAGE_LIMIT = 1024 * 1024 * 1024;

/** Room for the multipart body's own lines (boundaries, part headers, the text fields) around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

/** The largest upload body read for files of at most `maxBytes`. */
export const uploadBodyLimit = (maxBytes: number) => maxBytes + MULTIPART_OVERHEAD;

/** The extension a download is named with, by the type found in its bytes. */
const EXTENSION: Record<(typeof MEDIA_TYPES)[number], string> = {
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

/** A file's name as a label only: no folders, no control or direction characters, at most 255 characters. */
export function fileLabel(name: string): string | null {
  const base = name.split(/[\\/]/).at(-1) ?? '';
  const clean = base
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim()
    .slice(0, 255);
  return clean || null;
}

function theFile(files: readonly UploadedFile[]): UploadedFile {
  const stray = files.find((file) => file.field !== 'file');
  if (stray)
    throw new ParleyError('invalid_request', `Send the file in the form field "file"; "${stray.field}" is not one.`, {
      problems: [{ field: stray.field, message: 'unknown file field' }],
    });
  if (files.length === 0)
    throw new ParleyError('invalid_request', 'The form has no file: send it in the field "file".', {
      problems: [{ field: 'file', message: 'required' }],
    });
  if (files.length > 1)
    throw new ParleyError('invalid_request', 'Send one file per upload.', {
      problems: [{ field: 'file', message: 'given more than once' }],
    });
  return files[0]!;
}

const binary = z.string().meta({ format: 'binary' });

interface MediaRouteDeps {
  sql: Sql;
  worker: MediaWorker;
  maxBytes: number;
  /** The most bytes of media one account keeps (MEDIA_STORAGE_MAX_BYTES). */
  storageMaxBytes: number;
  now: () => Date;
}

/**
 * `/v1/media`: a customer's photo, document, voice note or video, uploaded by the caller, checked by
 * its bytes (shared/server/media.ts; 10 MB by default, and the account's storage cap), kept in the engine's database and understood after the
 * answer (`media.understood` or `media.failed`). The bytes are read back at `/v1/media/{id}/content`,
 * as a download that no browser runs or renders in the API's origin.
 */
export function addMediaRoutes(routes: ApiRoutes<EngineState>, deps: MediaRouteDeps): void {
  addUploadRoute(routes, deps);
  addMediaReadRoutes(routes, deps);
}

/** Keeps an uploaded file, checked by its bytes, and has the worker understand it after the answer. */
async function uploadMedium(
  { sql, worker, maxBytes, storageMaxBytes, now }: MediaRouteDeps,
  caller: Caller,
  conversationId: string | null,
  file: UploadedFile,
): Promise<MediaRecord> {
  const facts = inspectMedia(file.bytes, maxBytes);
  if (conversationId && !(await findConversation(sql, caller, conversationId, false, { remembered: true })))
    throw new ParleyError('not_found', `No conversation ${conversationId} for this key.`);
  const record = await sql.transaction(async (tx) => {
    const kept = await lockedMediaBytes(tx, caller.accountId);
    if (kept + facts.size > storageMaxBytes) throw storageFull(kept, facts.size, storageMaxBytes);
    return insertMedia(tx, caller, { facts, bytes: file.bytes, name: fileLabel(file.name), conversationId }, now());
  });
  worker.nudge();
  return record;
}

/** 413 with what the account keeps: the cap is the account's, so a smaller file may still fit. */
const storageFull = (kept: number, size: number, cap: number) =>
  new ParleyError(
    'payload_too_large',
    `The account's media storage is full: it keeps ${kept} of ${cap} bytes, and this file has ${size}. Delete or forget older media first.`,
    { limit: 'account_storage', kept_bytes: kept, max_bytes: cap },
  );

/** `POST /v1/media`: the upload. */
function addUploadRoute(routes: ApiRoutes<EngineState>, deps: MediaRouteDeps): void {
  const { maxBytes } = deps;
  routes.add(
    {
      method: 'post',
      path: '/v1/media',
      tag,
      security,
      summary: 'Upload a photo, document, voice note or video',
      description: `multipart/form-data with one file in the field file (PNG, JPEG, GIF, WebP, PDF; voice notes as Ogg/Opus, WebM, M4A, MP3 or WAV; videos as MP4 or WebM — known by its bytes, never by its name or declared type; at most ${maxBytes} bytes, audio at most 10 MB and 5 minutes, video at most 50 MB and 3 minutes) and, optionally, the conversation_id it belongs to. The answer is the record, status processing; once understood (after this answer) a media.understood event follows with its type, size, dimensions, page count or duration, the text a model with vision read in an image, or a voice note's transcript (STT_BASE_URL), or media.failed with the reason and its code (an unreadable PDF, the model failing, not_configured: no transcription API). A voice note sent in a conversation is answered by the AI from its transcript, as the customer's words; without a transcription API the AI says it cannot listen to voice notes yet and offers a person. Refused: other types (415), larger files (413), an account's media past MEDIA_STORAGE_MAX_BYTES (413, details.limit account_storage), images over 40 megapixels or 16,384 pixels a side and recordings over their length (422), compressed bodies (415). With an Idempotency-Key, a retry (even as a new form with another boundary) gives the same record.`,
      multipart: {
        fields: UploadMediaFields,
        files: { file: 'The photo, document, voice note or video.' },
        limit: uploadBodyLimit(maxBytes),
      },
      responses: { 201: { description: 'The medium, being understood.', schema: MediaRecord } },
      errors: ['not_found', 'unprocessable'],
    },
    async (ctx, { body, files }) => {
      const record = await uploadMedium(deps, ctx.state.caller, body.conversation_id ?? null, theFile(files));
      ctx.status = 201;
      ctx.body = record;
    },
  );
}

/** `/v1/media/{id}`: a medium's record, and its bytes as a download. */
function addMediaReadRoutes(routes: ApiRoutes<EngineState>, { sql }: MediaRouteDeps): void {
  routes
    .add(
      {
        method: 'get',
        path: '/v1/media/:id',
        tag,
        security,
        summary: 'A medium: its record, and what the engine understood',
        params: MediaParams,
        responses: { 200: { description: 'The record.', schema: MediaRecord } },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        const record = await findMedia(sql, ctx.state.caller, params.id);
        if (!record) throw new ParleyError('not_found', `No medium ${params.id} for this key.`);
        ctx.body = record;
      },
    )
    .add(
      {
        method: 'get',
        path: '/v1/media/:id/content',
        tag,
        security,
        summary: "A medium's bytes",
        description:
          'The file as uploaded, with the type found in its bytes, as a download (Content-Disposition: attachment) that a browser neither sniffs (nosniff) nor runs (Content-Security-Policy: sandbox), and that no cache keeps.',
        params: MediaParams,
        responses: {
          200: {
            description: 'The bytes.',
            contentType: MEDIA_TYPES[0],
            schema: binary,
            alternatives: Object.fromEntries(MEDIA_TYPES.slice(1).map((type) => [type, binary])),
          },
        },
        errors: ['not_found'],
      },
      async (ctx, { params }) => {
        const found = await findMediaContent(sql, ctx.state.caller, params.id);
        if (!found) throw new ParleyError('not_found', `No medium ${params.id} for this key.`);
        ctx.set('Content-Disposition', `attachment; filename="${found.record.id}.${EXTENSION[found.record.type]}"`);
        ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
        ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
        ctx.set('Cache-Control', 'private, no-store');
        ctx.type = found.record.type;
        ctx.body = found.bytes;
      },
    );
}
