/**
 * Signing and verifying what the service sends to a caller's server (SPEC "Verifying requests
 * sent by the service"): the signed text is `<unix seconds>.<raw body>`, the signature is
 * `sha256=` + lowercase hex HMAC-SHA256 with the endpoint's secret, compared in constant time,
 * and a timestamp more than 300 seconds from the receiver's clock is refused. Web Crypto only, so
 * it runs in Node and in browsers.
 */
export const SIGNATURE_TOLERANCE_S = 300;

const encoder = new TextEncoder();

async function hmacHex(secret: string, text: string): Promise<string> {
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const signature = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(text)));
  return Array.from(signature, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The `X-Service-Signature` value for a body sent at `timestamp` (Unix seconds).
 *
 * @example await signWebhook('whsec_…', 1767225600, '{"id":"evt_…"}') // 'sha256=5f…'
 */
export async function signWebhook(secret: string, timestamp: number, rawBody: string): Promise<string> {
  return `sha256=${await hmacHex(secret, `${timestamp}.${rawBody}`)}`;
}

export type SignatureProblem = 'missing' | 'malformed' | 'too_old' | 'too_new' | 'mismatch';

/**
 * Checks a received request's timestamp and signature headers against its raw body. Gives
 * `undefined` when it is genuine, or what is wrong with it.
 *
 * @example await verifyWebhook(secret, headers['x-service-timestamp'], headers['x-service-signature'], raw, Date.now())
 */
export async function verifyWebhook(
  secret: string,
  timestampHeader: string | undefined | null,
  signatureHeader: string | undefined | null,
  rawBody: string,
  nowMs: number,
): Promise<SignatureProblem | undefined> {
  if (!timestampHeader || !signatureHeader) return 'missing';
  if (!/^\d{1,12}$/.test(timestampHeader) || !/^sha256=[0-9a-f]{64}$/.test(signatureHeader)) return 'malformed';
  const skew = Number(timestampHeader) - Math.floor(nowMs / 1000);
  if (skew < -SIGNATURE_TOLERANCE_S) return 'too_old';
  if (skew > SIGNATURE_TOLERANCE_S) return 'too_new';
  const expected = await signWebhook(secret, Number(timestampHeader), rawBody);
  return constantTimeEqual(expected, signatureHeader) ? undefined : 'mismatch';
}

/** Compares two strings of the same length without stopping at the first difference. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}
