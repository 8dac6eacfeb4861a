import { createServer, type Server } from 'node:http';
import { closeServer, listen, urlOf } from './local-servers.ts';

/**
 * An OpenAI-compatible transcription server written for the tests, standing in for whisper.cpp's
 * server or a hosted one (a speech model cannot run here): real HTTP, `POST /v1/audio/transcriptions`
 * read as the real multipart form (`file`, `model`, `response_format`), answering `{ text }` as the
 * test scripts it. Every request is kept with its file's bytes.
 */
export interface TranscriptionRequest {
  model: string;
  fileName: string;
  fileType: string;
  bytes: Buffer;
  authorization: string | undefined;
}

export async function fakeTranscriber() {
  const requests: TranscriptionRequest[] = [];
  let next: (request: TranscriptionRequest) => { status?: number; body: unknown } = () => ({
    body: { text: 'Hello.' },
  });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const answer = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions')
          return answer(404, { error: { message: 'no such path' } });
        const form = await new Response(Buffer.concat(chunks), {
          headers: { 'content-type': req.headers['content-type'] ?? '' },
        })
          .formData()
          .catch(() => undefined);
        const file = form?.get('file');
        const model = form?.get('model');
        if (!form || typeof file === 'string' || !file || typeof model !== 'string')
          return answer(400, { error: { message: 'file and model are required' } });
        const request: TranscriptionRequest = {
          model,
          fileName: file.name,
          fileType: file.type,
          bytes: Buffer.from(await file.arrayBuffer()),
          authorization: req.headers.authorization,
        };
        requests.push(request);
        const reply = next(request);
        answer(reply.status ?? 200, reply.body);
      })();
    });
  });
  await listen(server);
  return {
    /** The API's base, with its /v1, as STT_BASE_URL names it. */
    baseUrl: `${urlOf(server)}/v1`,
    requests,
    /** What the next transcriptions answer. */
    answer(reply: (request: TranscriptionRequest) => { status?: number; body: unknown }) {
      next = reply;
    },
    close: () => closeServer(server),
  };
}
