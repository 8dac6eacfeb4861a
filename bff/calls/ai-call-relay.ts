/**
 * The widget's stream of a call with the AI (issue 30), `AI_CALL_STREAM_PATH?call_id=…` as a
 * WebSocket on the BFF's HTTP server, relayed to the engine's `/v1/voice-sessions/stream`.
 *
 * Why a WebSocket of its own and not the widget's Socket.IO socket: the widget's Socket.IO client
 * speaks text only (widget/app/socket-parser.ts), so audio there would go as base64 in JSON, a
 * third larger, through the 512 KB message cap; here the engine's protocol passes as it is.
 *
 * The first message is `join` with the widget's session token, checked with the Origin as the
 * widget's socket checks them, for this customer's call only; a refusal is an `error` message with
 * the code, then a close with 4000 + the code's HTTP status (4401, 4403, 4404, 4409). Then each
 * binary message (one turn's audio, at most AI_CALL_FRAME_BYTES) and each `turn_end`/`barge_in`
 * goes to the engine, at most MESSAGES_PER_MINUTE of them; the engine's messages and speech come back.
 */
import type { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer, type RawData } from 'ws';
import {
  AI_CALL_FRAME_BYTES,
  AI_CALL_STREAM_PATH,
  AiCallJoin,
  ERROR_STATUS,
  ParleyError,
  VoiceStreamClientMessage,
  VoiceStreamServerMessage,
  type AiCallServerMessage,
} from '../../shared/index.ts';
import { parseWith, toParleyError } from '../../shared/server/index.ts';
import { assertSessionOrigin } from '../widget/origins.ts';
import { bridgeCall, bytesOf, parseJson, tellError } from './ai-call-bridge.ts';
import type { AiCall, RelayDeps } from './ai-call-record.ts';
import type { EndedBy } from './call-registry.ts';

/** How long an opened stream may wait for its `join`. */
const JOIN_WITHIN_MS = 10_000;

/** Refuses a stream: the error, then a close whose code says it (4000 + the HTTP status). */
function refuse(widget: WebSocket, error: ParleyError): void {
  tellError(widget, error);
  widget.close(4000 + ERROR_STATUS[error.code], error.code);
}

export function createAiCallRelay(deps: RelayDeps) {
  const { sql, calls, logger, sessions } = deps;
  // Room for a turn a little over the cap, so that it is refused with a message rather than a cut connection.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 2 * AI_CALL_FRAME_BYTES });

  /** The customer's call this stream may join: their session, from an Origin it may be used from. */
  async function joined(request: IncomingMessage, callId: string, first: RawData, isBinary: boolean) {
    const message = isBinary ? undefined : parseJson(bytesOf(first).toString('utf8'));
    const { token } = parseWith(AiCallJoin, message, 'message');
    const session = await sessions.verify(token);
    const protocol = (request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    await assertSessionOrigin(
      sql,
      session,
      request.headers.origin ?? '',
      `${protocol}://${request.headers.host ?? ''}`,
    );
    const call = calls.get(callId);
    if (!call || call.customer.inboxId !== session.inboxId || call.customer.customerRef !== session.customerRef)
      throw new ParleyError('not_found', 'No call of yours with this id.');
    if (call.hangUp) throw new ParleyError('conflict', 'This call is open in another window already.');
    return call;
  }

  /** A new stream: it must join a call of its customer first. */
  function serve(widget: WebSocket, request: IncomingMessage, callId: string): void {
    widget.on('error', (error) => logger.warn({ err: error }, 'an AI call stream from the widget failed'));
    const late = setTimeout(
      () => refuse(widget, new ParleyError('unauthorized', 'Send {"type":"join","token":…} first.')),
      JOIN_WITHIN_MS,
    );
    widget.once('close', () => clearTimeout(late));
    widget.once('message', (first, isBinary) => {
      clearTimeout(late);
      joined(request, callId, first, isBinary).then(
        (call) => (widget.readyState === WebSocket.OPEN ? bridgeCall(deps, widget, call) : undefined),
        (error: unknown) => {
          const refusal = toParleyError(error);
          if (refusal.code === 'internal') logger.error({ err: error }, 'an AI call stream could not be joined');
          refuse(widget, refusal);
        },
      );
    });
  }

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://bff.invalid');
    if (url.pathname !== AI_CALL_STREAM_PATH) return;
    sockets.handleUpgrade(request, socket, head, (widget) =>
      serve(widget, request, url.searchParams.get('call_id') ?? ''),
    );
  };

  let server: EventEmitter | undefined;
  return {
    /** Serves the stream on an HTTP server's upgrades (the others are left to their own listeners). */
    attach(target: EventEmitter): void {
      server = target;
      target.on('upgrade', onUpgrade);
    },
    async close(): Promise<void> {
      server?.off('upgrade', onUpgrade);
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
    },
  };
}
