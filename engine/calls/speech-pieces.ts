/**
 * An answer's text as it is spoken: markdown's marks taken out (a link says its words, not its
 * address), then cut into pieces of a sentence or more, each spoken and sent on its own so that a
 * barge-in stops what is left and the first words play sooner.
 */
const MIN_PIECE = 40;
const MAX_PIECE = 600;

/** @example speakable('See [returns](https://shop.example/returns) **now**.') // 'See returns now.' */
export function speakable(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`#>]+/g, '')
    .replace(/https?:\/\/\S+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** @example speechPieces('Hello there, friend. How are you today? Fine.') // ['Hello there, friend.', 'How are you today? Fine.'] */
export function speechPieces(text: string): string[] {
  const sentences = speakable(text).match(/[^.!?]+(?:[.!?]+|$)/g) ?? [];
  const pieces: string[] = [];
  let current = '';
  for (const sentence of sentences.map((part) => part.trim()).filter(Boolean)) {
    current = current ? `${current} ${sentence}` : sentence;
    if (current.length >= MIN_PIECE) {
      pieces.push(...cut(current));
      current = '';
    }
  }
  if (current) pieces.push(...cut(current));
  return pieces;
}

/** A piece too long for one request, cut at spaces. */
function cut(piece: string): string[] {
  if (piece.length <= MAX_PIECE) return [piece];
  const at = piece.lastIndexOf(' ', MAX_PIECE);
  const end = at > 0 ? at : MAX_PIECE;
  return [piece.slice(0, end), ...cut(piece.slice(end).trim())];
}
