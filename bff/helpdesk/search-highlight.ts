/**
 * The part of a text a search matched, as safe HTML: the customer's text escaped (so their markup is
 * shown, never run) and each match inside `<mark>`; long texts cut to a window around the first match.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The words of a query, longest first (so a longer word is marked rather than a shorter one in it). */
export function queryWords(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}@._+-]+/u)
    .filter(Boolean);
  return [...new Set(words)].sort((a, b) => b.length - a.length);
}

export function highlight(text: string, query: string, around = 60): string {
  const words = queryWords(query);
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!words.length) return escapeHtml(flat.slice(0, around * 2));
  const pattern = new RegExp(words.map(escapeRegExp).join('|'), 'giu');
  const first = flat.search(pattern);
  const start = first > around ? first - around : 0;
  const end = Math.min(flat.length, Math.max(first, 0) + around * 2);
  const window = flat.slice(start, end);
  let html = '';
  let at = 0;
  for (const match of window.matchAll(pattern)) {
    html += `${escapeHtml(window.slice(at, match.index))}<mark>${escapeHtml(match[0])}</mark>`;
    at = match.index + match[0].length;
  }
  html += escapeHtml(window.slice(at));
  return `${start > 0 ? '…' : ''}${html}${end < flat.length ? '…' : ''}`;
}
