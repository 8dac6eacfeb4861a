import { createServer, type Server, type ServerResponse } from 'node:http';
import { closeServer, listen, urlOf } from './local-servers.ts';
import { wavOf } from './recording-fixtures.ts';

/**
 * An OpenAI-compatible speech server written for the tests, standing in for a Piper or Kokoro server
 * or a hosted one (a speech model cannot run here): real HTTP, `POST /v1/audio/speech` read as the
 * real JSON body (`model`, `input`, `voice`, `response_format`), answering real WAV bytes (silence,
 * a tenth of a second per word). A request may be held, as a slow model would, until `release`; one
 * the engine gives up on is marked `aborted`.
 */
export interface SpeechRequest {
  model: string;
  input: string;
  voice: string;
  responseFormat: string | undefined;
  authorization: string | undefined;
  /** The WAV bytes answered (empty while held). */
  audio: Buffer;
  aborted: boolean;
}

/** The WAV bytes the stand-in speaks `input` as. */
export const speechOf = (input: string): Buffer => wavOf(Math.max(1, input.split(/\s+/).length) / 10);

export async function fakeSpeaker() {
  const requests: SpeechRequest[] = [];
  let hold = false;
  const held: { request: SpeechRequest; response: ServerResponse }[] = [];
  const answer = (request: SpeechRequest, response: ServerResponse) => {
    request.audio = speechOf(request.input);
    response.writeHead(200, { 'content-type': 'audio/wav' }).end(request.audio);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const fail = (status: number, message: string): void => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message } }));
      };
      if (req.method !== 'POST' || req.url !== '/v1/audio/speech') return fail(404, 'no such path');
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        return fail(400, 'the body is not JSON');
      }
      if (typeof body['input'] !== 'string' || typeof body['model'] !== 'string' || typeof body['voice'] !== 'string')
        return fail(400, 'model, input and voice are required');
      const request: SpeechRequest = {
        model: body['model'],
        input: body['input'],
        voice: body['voice'],
        responseFormat: typeof body['response_format'] === 'string' ? body['response_format'] : undefined,
        authorization: req.headers.authorization,
        audio: Buffer.alloc(0),
        aborted: false,
      };
      requests.push(request);
      res.on('close', () => {
        if (!res.writableFinished) request.aborted = true;
      });
      if (hold) held.push({ request, response: res });
      else answer(request, res);
    });
  });
  await listen(server);
  return {
    /** The API's base, with its /v1, as TTS_BASE_URL names it. */
    baseUrl: `${urlOf(server)}/v1`,
    requests,
    /** Holds every request from now on until `release`. */
    hold() {
      hold = true;
    },
    /** Answers the held requests (those still open) and holds no more. */
    release() {
      hold = false;
      for (const { request, response } of held.splice(0)) if (!request.aborted) answer(request, response);
    },
    close: () => closeServer(server),
  };
}
