import { createHmac, timingSafeEqual } from 'node:crypto';
import { ParleyError } from '../../shared/index.ts';

/** Chatwoot's identity validation: `identifier_hash` = hex HMAC-SHA256 of `identifier` with the inbox's HMAC token. */
export function identifierHash(hmacToken: string, identifier: string): string {
  return createHmac('sha256', hmacToken).update(identifier).digest('hex');
}

/**
 * Checks `identifier_hash` in constant time when one is sent, and demands one when the inbox
 * requires identity validation. A failure is a 401 (Chatwoot answers 500 here). Gives whether the
 * identity was proved.
 */
export function checkIdentity(
  inbox: { hmacToken: string | null; hmacMandatory: boolean },
  identifier: string | undefined,
  hash: string | undefined,
): boolean {
  if (!hash && !inbox.hmacMandatory) return false;
  if (!identifier || !hash || !inbox.hmacToken) {
    throw new ParleyError(
      'unauthorized',
      'This inbox requires identity validation: send identifier and its identifier_hash.',
    );
  }
  const expected = Buffer.from(identifierHash(inbox.hmacToken, identifier), 'utf8');
  const given = Buffer.from(hash.toLowerCase(), 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new ParleyError('unauthorized', 'The identifier_hash does not match the identifier.');
  }
  return true;
}
