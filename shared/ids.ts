/**
 * Id prefixes of every public identifier, and the one generator that makes them.
 * The prefix tells a reader (and a secret scanner) what an id is; the random part carries
 * at least 128 bits so an id can also act as a capability (DESIGN.md "Credentials").
 */
export const ID_PREFIX = {
  conversation: 'cnv_',
  event: 'evt_',
  reply: 'rpl_',
  visitor: 'vis_',
  account: 'acc_',
  apiKey: 'key_',
  knowledgeDocument: 'doc_',
  inbox: 'inb_',
  turn: 'trn_',
  actionRequest: 'act_',
  voiceSession: 'vsn_',
  voiceToken: 'vst_',
  webhookEndpoint: 'whe_',
  webhookDelivery: 'whd_',
  media: 'med_',
  monitor: 'mon_',
  monitorFinding: 'mnf_',
  report: 'rpt_',
  interview: 'ivw_',
  call: 'call_',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random base62 text from the platform's CSPRNG (Web Crypto, so it runs in browsers and Node).
 * 22 characters of base62 carry 130 bits.
 *
 * @example randomToken(22) // 'x3K9...'
 */
export function randomToken(length = 22): string {
  const bytes = new Uint8Array(length);
  let out = '';
  // Rejection sampling keeps every character equally likely (62 does not divide 256).
  while (out.length < length) {
    globalThis.crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/**
 * A new id of the given kind.
 *
 * @example newId('conversation') // 'cnv_4fJ0...'
 */
export function newId(kind: IdKind): string {
  return ID_PREFIX[kind] + randomToken();
}

/** True when `value` looks like an id of `kind` (prefix and base62 body). */
export function isId(kind: IdKind, value: string): boolean {
  const prefix = ID_PREFIX[kind];
  return value.startsWith(prefix) && /^[0-9A-Za-z]{16,64}$/.test(value.slice(prefix.length));
}
