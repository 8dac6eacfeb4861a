/**
 * A customer's voice note handed to the engine (issue 30): `POST /v1/media` with the file and the
 * conversation, so the engine transcribes it and the AI answers its words. Multipart, so not
 * through `callEngine` (JSON only); refusals and failures are EngineCallErrors all the same.
 */
import { isErrorBody, type ErrorCode } from '../../shared/index.ts';
import { EngineCallError } from './engine-call.ts';

/** Where the engine is and with which key, and how long an upload may take. */
export interface MediaTransport {
  baseUrl: string;
  bearer: string;
  timeoutMs: number;
}

/** The engine's record of the upload: its id names the medium in `media.understood` and `media.failed`. */
export interface UploadedMedium {
  id: string;
}

/** Uploads `file` into the engine conversation `conversationId`; a retry with the same key gives the same record. */
export async function uploadEngineMedia(
  transport: MediaTransport,
  conversationId: string,
  file: { bytes: Uint8Array; name: string; type: string },
  idempotencyKey: string,
): Promise<UploadedMedium> {
  const form = new FormData();
  form.append('conversation_id', conversationId);
  form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  let response: Response;
  try {
    response = await fetch(`${transport.baseUrl}/v1/media`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${transport.bearer}`, 'idempotency-key': idempotencyKey },
      signal: AbortSignal.timeout(transport.timeoutMs),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new EngineCallError(`The engine could not be reached (POST /v1/media): ${reason}`, {
      status: 0,
      code: 'unreachable',
    });
  }
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok)
    throw new EngineCallError(
      isErrorBody(payload) ? payload.error.message : `The engine answered ${response.status} to POST /v1/media.`,
      { status: response.status, code: isErrorBody(payload) ? (payload.error.code as ErrorCode) : 'internal' },
    );
  const id = (payload as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string')
    throw new EngineCallError("The engine's answer to POST /v1/media has an unexpected shape.", {
      status: 502,
      code: 'internal',
    });
  return { id };
}
