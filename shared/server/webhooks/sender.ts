import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { signWebhook } from '../../webhook-signature.ts';
import type { AttemptResult, ClaimedDelivery } from './deliveries.ts';
import { checkEndpointHost, guardedLookup, type TargetPolicy } from './targets.ts';

/** A receiver must answer within this time (SPEC "Limits"). */
export const ANSWER_TIMEOUT_MS = 10_000;
const KEEP_ERROR_CHARS = 300;

/** Posts one delivery, signed, and tells how it went. Never throws: every outcome is an attempt to record. */
export type SendWebhook = (delivery: ClaimedDelivery, nowMs: number) => Promise<AttemptResult>;

/**
 * Whose headers a delivery carries (SPEC "Verifying requests sent by the service"): the AI API's
 * `X-Service-*`, the helpdesk's `X-Desk-*`.
 */
export type HeaderPrefix = 'X-Service' | 'X-Desk';

/** How one exchange ended: the receiver's status (null without one), what went wrong, and its answer if kept. */
interface Exchange {
  status: number | null;
  error: string | null;
  answer?: string;
}

/** The signed headers of one delivery, named with `prefix`. */
async function deliveryHeaders(
  delivery: ClaimedDelivery,
  prefix: HeaderPrefix,
  timestamp: number,
): Promise<Record<string, string>> {
  return {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(delivery.body)),
    'User-Agent': 'Parley-Webhooks/1',
    [`${prefix}-Timestamp`]: String(timestamp),
    [`${prefix}-Signature`]: await signWebhook(delivery.secret, timestamp, delivery.body),
    [`${prefix}-Event-Id`]: delivery.eventId,
    [`${prefix}-Event-Type`]: delivery.eventType,
    [`${prefix}-Delivery-Id`]: delivery.id,
  };
}

/**
 * Posts `body` to `url` and waits for the whole answer, at most `timeoutMs`. Settles once, whichever
 * comes first: the answer's end, its limit passed, an error, or the time up.
 */
function exchange(
  url: URL,
  headers: Record<string, string>,
  body: string,
  { policy, timeoutMs, answerLimit }: { policy: TargetPolicy; timeoutMs: number; answerLimit: number | undefined },
): Promise<Exchange> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Exchange>((done) => {
    let settled = false;
    const settle = (status: number | null, error: string | null, answer?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done({ status, error, ...(answer === undefined ? {} : { answer }) });
    };
    const outgoing = send(
      url,
      { method: 'POST', headers, lookup: guardedLookup(url, policy) as never, agent: false },
      (response) => {
        const status = response.statusCode ?? null;
        const chunks: Buffer[] = [];
        let size = 0;
        // A webhook's answer is not needed: it is read away (it may not hold the socket). An action
        // URL's answer is the result (`answerLimit`): kept, up to that many bytes.
        response.on('data', (chunk: Buffer) => {
          if (answerLimit === undefined) return;
          size += chunk.length;
          if (size > answerLimit) {
            settle(status, `the answer is larger than ${answerLimit} bytes`);
            outgoing.destroy();
          } else chunks.push(chunk);
        });
        response.on('end', () =>
          settle(
            status,
            status !== null && status >= 200 && status < 300 ? null : `the receiver answered ${status}`,
            answerLimit === undefined ? undefined : Buffer.concat(chunks).toString('utf8'),
          ),
        );
        response.on('error', (error) => settle(status, error.message));
      },
    );
    const timer = setTimeout(() => {
      settle(null, `no answer within ${timeoutMs / 1000} seconds`);
      outgoing.destroy();
    }, timeoutMs);
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      settle(
        null,
        error.code === 'EPRIVATEADDRESS' ? `refused: ${error.message}` : error.message || String(error.code),
      ),
    );
    outgoing.end(body);
  });
}

/**
 * The real sender: node:http(s) that refuses a private address written in the URL, with a lookup
 * that refuses private addresses at connect time,
 * no redirects followed, and a 10-second limit on the whole exchange. Every delivery is signed
 * `sha256=` over `<timestamp>.<body>` and names its event and delivery in `<prefix>-*` headers.
 *
 * @example createSender({ allowedPrivateOrigins: [] }, { prefix: 'X-Desk' })
 */
export function createSender(
  policy: TargetPolicy,
  {
    prefix = 'X-Service',
    timeoutMs = ANSWER_TIMEOUT_MS,
    answerLimit,
  }: { prefix?: HeaderPrefix; timeoutMs?: number; answerLimit?: number } = {},
): SendWebhook {
  return async (delivery, nowMs) => {
    const started = performance.now();
    const timestamp = Math.floor(nowMs / 1000);
    const finish = (status: number | null, error: string | null, answer?: string): AttemptResult => ({
      status,
      error: error && error.slice(0, KEEP_ERROR_CHARS),
      durationMs: performance.now() - started,
      ...(answer === undefined ? {} : { answer }),
    });
    let url: URL;
    try {
      url = new URL(delivery.url);
    } catch {
      return finish(null, 'the endpoint URL is not valid');
    }
    // An address written as an IP (or localhost) is connected to without a lookup, so the guarded
    // lookup of the exchange never sees it: refused here, whatever the caller checked before.
    try {
      checkEndpointHost(url, policy);
    } catch (error) {
      return finish(null, `refused: ${(error as Error).message}`);
    }
    const headers = await deliveryHeaders(delivery, prefix, timestamp);
    const { status, error, answer } = await exchange(url, headers, delivery.body, { policy, timeoutMs, answerLimit });
    return finish(status, error, answer);
  };
}
