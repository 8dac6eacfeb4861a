import { z } from 'zod';
import { ConversationId } from './engine.ts';

/** Media of the AI conversation API (`/v1/media`): photos and documents a customer sent, understood by the engine. */

export const MediaId = z.string().regex(/^med_[0-9A-Za-z]{16,64}$/, 'a media id (med_…)');

export const MediaParams = z.strictObject({ id: MediaId });

/**
 * Where a medium is: `processing` right after the upload, then `understood` (its facts, and what a
 * model with vision read in it) or `failed` (with the reason). Each end is also an event.
 */
export const MediaStatus = z.enum(['processing', 'understood', 'failed']);
export type MediaStatus = z.infer<typeof MediaStatus>;

/** The types the engine takes, known by the file's bytes (never its name or declared type). */
export const MediaType = z.enum([
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
  'video/mp4',
  'video/webm',
]);

export const MediaRecord = z.object({
  id: z.string().describe('med_…'),
  conversation_id: z.string().nullable().describe('The conversation it was sent in, when the upload named one.'),
  type: MediaType,
  size: z.number().int().describe('Bytes.'),
  width: z.number().int().nullable().describe('Pixels, for images.'),
  height: z.number().int().nullable().describe('Pixels, for images.'),
  pages: z.number().int().nullable().describe("A PDF's page count, once understood."),
  duration_s: z
    .number()
    .nullable()
    .describe("A voice note's or video's length in seconds, when its bytes state it (WAV, Ogg, MP4, WebM with Info)."),
  name: z
    .string()
    .nullable()
    .describe("The file's name as sent (control characters and path removed); only a label, never trusted."),
  status: MediaStatus,
  text: z
    .string()
    .nullable()
    .describe(
      'What a model with vision read in an image (LLM_VISION), or the transcript of a voice note (STT_BASE_URL).',
    ),
  failure_reason: z.string().nullable().describe('Why it could not be understood, when status is failed.'),
  created_at: z.string(),
  processed_at: z.string().nullable().describe('When it was understood or failed.'),
});
export type MediaRecord = z.infer<typeof MediaRecord>;

/** The text fields of `POST /v1/media`'s multipart form (its one file goes in the field `file`). */
export const UploadMediaFields = z.strictObject({
  conversation_id: ConversationId.optional().describe(
    "The conversation it belongs to (one of this key's); its events then name it.",
  ),
});
