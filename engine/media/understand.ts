import type { MediaRecord } from '../../shared/index.ts';
import { LlmUnavailableError, type LlmClient, type LlmMessage } from '../brain/llm-client.ts';
import { maskCodes } from '../brain/masking.ts';
import type { MediaOutcome } from '../store/media.ts';
import { checkPdf } from './pdf.ts';
import { isVoiceNote, listen } from './listen.ts';
import type { Transcriber } from './transcriber.ts';

/** What understanding a medium gave, and the model's tokens it took (counted in the account's usage). */
export interface Understanding {
  outcome: MediaOutcome;
  usage: { promptTokens: number; completionTokens: number } | undefined;
}

/** Longest description kept from the model. */
const MAX_TEXT = 4_000;

const VISION_PROMPT =
  "You look at pictures that customers send to a shop's support chat, for the support agent who reads them. In at most three sentences, say what the picture shows (a product, damage, a receipt, a screenshot…) and copy any text in it exactly. Say only what can be seen.";

/**
 * Understands one medium: a PDF must be readable (not cut short, not encrypted, with a catalog); a
 * voice note is transcribed (listen.ts);
 * an image's type and size are known from the upload, and with a model that reads images
 * (`vision`) it is described, its text copied, and codes in that text masked like a customer's
 * typed codes. A model that fails after its own tries makes the medium fail, with the reason.
 */
export async function understandMedia(
  record: MediaRecord,
  bytes: Buffer,
  { vision, transcriber }: { vision: LlmClient | undefined; transcriber: Transcriber | undefined },
): Promise<Understanding> {
  if (record.type === 'application/pdf') {
    const check = checkPdf(bytes);
    return {
      outcome: check.readable
        ? { status: 'understood', pages: check.pages }
        : { status: 'failed', code: 'unreadable', reason: check.reason },
      usage: undefined,
    };
  }
  if (isVoiceNote(record)) return { outcome: await listen(record, bytes, transcriber), usage: undefined };
  // A video is known by its facts (type, size, duration); nothing reads its frames.
  if (!record.type.startsWith('image/')) return { outcome: { status: 'understood' }, usage: undefined };
  if (!vision) return { outcome: { status: 'understood' }, usage: undefined };
  const messages: LlmMessage[] = [
    { role: 'system', content: VISION_PROMPT },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What does this picture show?' },
        { type: 'image_url', image_url: { url: `data:${record.type};base64,${bytes.toString('base64')}` } },
      ],
    },
  ];
  try {
    const answer = await vision.chat(messages);
    const text = maskCodes(answer.content.trim()).slice(0, MAX_TEXT);
    return { outcome: { status: 'understood', ...(text ? { text } : {}) }, usage: answer.usage };
  } catch (error) {
    if (!(error instanceof LlmUnavailableError)) throw error;
    return {
      outcome: {
        status: 'failed',
        code: 'unavailable',
        reason: `The model could not describe the picture: ${error.message}`,
      },
      usage: undefined,
    };
  }
}
