/**
 * The two ways of a joined call with the AI (issue 30; ai-call-relay.ts joins it): the widget's
 * turns (binary, at most AI_CALL_FRAME_BYTES) and `turn_end`/`barge_in` go to the engine's stream,
 * at most MESSAGES_PER_MINUTE of them; the engine's messages and speech come back as they are. The
 * BFF keeps each transcript as the customer's message and rings people on a handover.
 */
import WebSocket, { type RawData } from 'ws';
import {
  AI_CALL_FRAME_BYTES,
  ParleyError,
  VoiceStreamClientMessage,
  VoiceStreamServerMessage,
  type AiCallServerMessage,
} from '../../shared/index.ts';
import type { AiCall, RelayDeps } from './ai-call-record.ts';
import { keepHeardTurn, ringForHandover } from './ai-call-turns.ts';

/** How many messages a call's widget may send a minute (a turn is one or two). */
export const MESSAGES_PER_MINUTE = 120;
export const bytesOf = (data: RawData): Buffer =>
  Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Tells the widget what went wrong, as the engine's stream does. */
export function tellError(widget: WebSocket, error: ParleyError): void {
  if (widget.readyState === WebSocket.OPEN)
    widget.send(JSON.stringify({ type: 'error', code: error.code, message: error.message }));
}

/** At most `limit` calls of `take()` a minute. */
function perMinute(limit: number, now: () => number) {
  let windowStart = now();
  let count = 0;
  return () => {
    if (now() - windowStart >= 60_000) {
      windowStart = now();
      count = 0;
    }
    return ++count <= limit;
  };
}

/** Carries the call between the widget's socket and the engine's stream until either closes. */
export function bridgeCall(deps: RelayDeps, widget: WebSocket, call: AiCall): void {
  const { logger } = deps;
  clearTimeout(call.joinBy);
  const engine = new WebSocket(call.engine.voiceStreamUrl(call.engineCallId), {
    headers: { authorization: `Bearer ${call.token}` },
  });
  let opened = false;
  let turns = 0;
  const allowed = perMinute(MESSAGES_PER_MINUTE, () => deps.now().getTime());
  const tell = (message: AiCallServerMessage) => {
    if (widget.readyState === WebSocket.OPEN) widget.send(JSON.stringify(message));
  };
  call.hangUp = (endedBy) => {
    // The engine ends its call when its stream closes (1000: the customer, or a person took it on; otherwise: the network).
    if (opened) engine.close(endedBy === 'network' ? 4000 : 1000);
    else {
      engine.terminate();
      void call.engine.endCall(call.engineCallId, endedBy).catch(() => undefined);
    }
    if (widget.readyState === WebSocket.OPEN) widget.close(1000, 'call ended');
  };
  const failed = (error: unknown) => logger.error({ err: error, call: call.id }, 'an AI call message failed');

  engine.on('open', () => (opened = true));
  engine.on('unexpected-response', (_request, response) => {
    logger.warn({ call: call.id, status: response.statusCode }, 'the engine refused an AI call stream');
    deps.end(call, 'network');
  });
  engine.on('error', (error) => logger.warn({ err: error, call: call.id }, 'an AI call stream to the engine failed'));
  engine.on('close', () => deps.end(call, 'network'));
  engine.on('message', (data, isBinary) => {
    if (isBinary) return widget.readyState === WebSocket.OPEN && widget.send(bytesOf(data), { binary: true });
    const parsed = VoiceStreamServerMessage.safeParse(parseJson(bytesOf(data).toString('utf8')));
    if (!parsed.success) return;
    const message = parsed.data;
    tell(message);
    if (message.type === 'transcript') keepHeardTurn(deps, call, message.text, ++turns).catch(failed);
    if (message.type === 'handover') ringForHandover(deps, call, tell).catch(failed);
  });

  widget.on('message', (data, isBinary) => {
    if (!allowed()) return tellError(widget, new ParleyError('rate_limited', 'Too many messages on this call.'));
    if (!opened || engine.readyState !== WebSocket.OPEN)
      return tellError(widget, new ParleyError('invalid_state', 'Wait for "ready" before speaking.'));
    const bytes = bytesOf(data);
    if (isBinary) {
      if (bytes.length > AI_CALL_FRAME_BYTES)
        return tellError(widget, new ParleyError('payload_too_large', 'A turn may hold 1 MB of audio at most.'));
      return engine.send(bytes, { binary: true });
    }
    const parsed = VoiceStreamClientMessage.safeParse(parseJson(bytes.toString('utf8')));
    if (!parsed.success)
      return tellError(widget, new ParleyError('invalid_request', 'A text message is turn_end or barge_in.'));
    engine.send(JSON.stringify(parsed.data));
  });
  widget.on('close', (code) => deps.end(call, code === 1000 || code === 1001 ? 'customer' : 'network'));
}
