/**
 * The new words of an e-mail reply, without the history it quotes and without the signature.
 * Simple rules that say what they do, not a guess at every mail client: the text is cut at the
 * first line that opens a quote ("On … wrote:", "Am … schrieb …:", "-----Original Message-----",
 * a line starting with ">"), and at the signature separator ("-- ", RFC 3676 §4.3).
 */

/** Lines that open the quoted history, in the languages most mail clients write them in. */
const QUOTE_OPENERS: readonly RegExp[] = [
  /^On\b.*\bwrote:?$/i,
  /^Am\b.*\bschrieb\b.*:?$/i,
  /^Le\b.*\ba écrit\s*:?$/i,
  /^El\b.*\bescribió:?$/i,
  /^-{2,}\s*(Original Message|Ursprüngliche Nachricht|Message d'origine)\s*-{2,}$/i,
  /^_{10,}$/,
];

/** A quote header some clients fold onto two lines ("On Mon, 1 Jan 2026 at 10:00, Shop <" / "reply+…> wrote:"). */
const FOLDED_OPENER = /^(On|Am)\b/i;

/** The reply's own words, trimmed; empty when it only quoted. */
export function stripQuotedReply(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const kept: string[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    const trimmed = line.trim();
    if (line === '-- ' || line === '--') break;
    if (trimmed.startsWith('>')) break;
    if (QUOTE_OPENERS.some((opener) => opener.test(trimmed))) break;
    const joined = `${trimmed} ${lines[index + 1]?.trim() ?? ''}`;
    if (FOLDED_OPENER.test(trimmed) && QUOTE_OPENERS.some((opener) => opener.test(joined))) break;
    kept.push(line);
  }
  return kept.join('\n').trim();
}
