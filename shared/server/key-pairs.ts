/**
 * Parses a key set as `kid:base64url` pairs separated by commas (SESSION_KEYS, SECRETS_KEYS); the
 * first key is the one that signs or seals, every key verifies or opens, so keys rotate. `check`
 * refuses a key of the wrong length with a message naming it.
 *
 * @example parseKeyPairs('k2:…,k1:…', 'session key', (kid, bytes) => bytes.length >= 32 || `${kid} is too short`)
 */
export function parseKeyPairs(
  text: string,
  what: string,
  check: (kid: string, bytes: Buffer) => true | string,
): { kid: string; bytes: Buffer }[] {
  const keys = text
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const [kid, encoded] = pair.split(':');
      if (!kid || !encoded || !/^[\w-]{1,64}$/.test(kid))
        throw new TypeError(`each ${what} must be kid:key, with a kid of letters, digits, _ or -`);
      const bytes = Buffer.from(encoded, 'base64url');
      const verdict = check(kid, bytes);
      if (verdict !== true) throw new TypeError(verdict);
      return { kid, bytes };
    });
  if (keys.length === 0) throw new TypeError(`the ${what} set is empty`);
  return keys;
}
