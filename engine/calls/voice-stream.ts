/**
 * `GET /v1/voice-sessions/stream?call_id=…` as a WebSocket (issue 30): the stream of a call with
 * the AI. Its credential is the voice session token that began the call (mode "ai"), good for one
 * stream of that call only, for two minutes after the connect. A server-side client sends it as
 * `Authorization: Bearer vst_…`; a browser, which cannot set headers on a WebSocket, may put it in the
 * query as `token=` — it is single-use and short-lived, so a copy in a log opens nothing.
 *
 * Closing the socket ends the call: a normal close (1000, 1001) was the customer hanging up, any
 * other the network. A call ended by `POST /v1/calls/{id}/end` closes its stream.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { ParleyError, type ErrorCode } from '../../shared/index.ts';
import { MEDIA_KIND_CAPS, type Logger } from '../../shared/server/index.ts';
import type { CallRecord } from '../store/calls.ts';
import { ownerCaller, type Calls } from './calls.ts';
import { serveCallStream, type CallStreamDeps } from './call-stream.ts';

export const VOICE_STREAM_PATH = '/v1/voice-sessions/stream';
const HEARTBEAT_MS = 30_000;

export interface VoiceStreamDeps {
  calls: Calls;
  logger: Logger;
  /** Hears and speaks; undefined when speech is not configured (every stream is then refused). */
  speech: Omit<CallStreamDeps, 'logger'> | undefined;
  /** Told when a closed stream ended its call: its events go out now. */
  onEvents: () => void;
}

/** Refuses an upgrade with a `/v1` error body, before any WebSocket exists. */
function refuse(socket: Duplex, code: ErrorCode, message: string): void {
  const error = new ParleyError(code, message);
  const body = JSON.stringify(error.toBody());
  socket.end(
    `HTTP/1.1 ${error.status} ${code}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The call id and token of an upgrade request. */
function credentialOf(request: IncomingMessage, url: URL): { callId: string; token: string } | undefined {
  const bearer = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const token = bearer ?? url.searchParams.get('token');
  const callId = url.searchParams.get('call_id');
  return token && callId ? { callId, token } : undefined;
}

export function createVoiceStream({ calls, logger, speech, onEvents }: VoiceStreamDeps) {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MEDIA_KIND_CAPS.audio.bytes });
  const open = new Map<string, WebSocket>();

  calls.onEnded(({ callId, endedBy }) => {
    const socket = open.get(callId);
    if (!socket) return;
    open.delete(callId);
    socket.send(JSON.stringify({ type: 'call_ended', ended_by: endedBy }));
    socket.close(1000, 'call ended');
  });

  /** Ends the call its stream was for, unless it ended already (then nothing is emitted twice). */
  const endOnClose = async (call: CallRecord, code: number) => {
    if (open.get(call.id) === undefined) return;
    open.delete(call.id);
    const endedBy = code === 1000 || code === 1001 ? 'customer' : 'network';
    try {
      await calls.end(ownerCaller(call.owner), call.id, endedBy);
      onEvents();
    } catch (error) {
      if (!(error instanceof ParleyError)) logger.error({ err: error, call: call.id }, 'a closed call did not end');
    }
  };

  const keepAlive = (socket: WebSocket) => {
    let alive = true;
    socket.on('pong', () => (alive = true));
    const timer = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, HEARTBEAT_MS);
    socket.on('close', () => clearInterval(timer));
  };

  const accept = (call: CallRecord, socket: WebSocket) => {
    open.set(call.id, socket);
    keepAlive(socket);
    socket.on('close', (code) => void endOnClose(call, code));
    socket.on('error', (error) => logger.warn({ err: error, call: call.id }, 'an AI call stream failed'));
    serveCallStream(socket, call, { ...speech!, logger });
  };

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://engine.invalid');
    if (url.pathname !== VOICE_STREAM_PATH) return refuse(socket, 'not_found', `No WebSocket at ${url.pathname}.`);
    if (!speech)
      return refuse(socket, 'not_available', 'This engine has no speech configured (STT_BASE_URL, TTS_BASE_URL).');
    const credential = credentialOf(request, url);
    if (!credential) return refuse(socket, 'unauthorized', 'call_id and the voice session token are required.');
    const call = await calls.openStream(credential.callId, credential.token);
    if (!call)
      return refuse(
        socket,
        'unauthorized',
        'The token does not open this call: unknown, used, expired or not an AI call.',
      );
    sockets.handleUpgrade(request, socket, head, (ws) => accept(call, ws));
  }

  /** Serves the stream on `server`'s upgrades (every other upgrade is refused). */
  function attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      upgrade(request, socket, head).catch((error: unknown) => {
        logger.error({ err: error }, 'a voice stream upgrade failed');
        refuse(socket, 'internal', 'The stream could not be opened.');
      });
    });
  }

  return { attach, close: () => sockets.close() };
}

export type VoiceStream = ReturnType<typeof createVoiceStream>;
