/**
 * The random tokens of e-mail: the one in a `reply+<token>@…` address and the one in a continuation
 * link. They are capabilities, so only their SHA-256 is stored; lower-case hex, because mail
 * systems may change the case of an address's local part.
 */
import { createHash, randomBytes } from 'node:crypto';

/** A new token: 160 random bits, as 40 lower-case hex digits. */
export const newEmailToken = (): string => randomBytes(20).toString('hex');

/** What is stored of a token. */
export const emailTokenHash = (token: string): string => createHash('sha256').update(token.toLowerCase()).digest('hex');

/** The reply address of a token. */
export const replyAddress = (token: string, domain: string): string => `reply+${token}@${domain}`;

/**
 * The token of a reply address at `domain` (`reply+<token>@domain`, any case), or undefined when
 * the address is not one of ours.
 */
export function replyTokenOf(address: string, domain: string): string | undefined {
  const match = /^reply\+([0-9a-f]{40})@(.+)$/i.exec(address.trim());
  if (!match || match[2]!.toLowerCase() !== domain.toLowerCase()) return undefined;
  return match[1]!.toLowerCase();
}
