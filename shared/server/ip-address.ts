import { isIP } from 'node:net';

/**
 * The eight 16-bit groups of an IPv6 address: `::` expanded, a dotted IPv4 tail as its two groups,
 * a zone (`%eth0`) left out. Undefined when `address` is not IPv6. Client addresses (issue 12) and
 * webhook targets both need the groups; reading them from the text instead misses the other
 * spellings of one address (`::ffff:10.0.0.1` is `::ffff:a00:1`).
 *
 * @example ipv6Groups('2001:db8::10.0.0.1') // [0x2001, 0xdb8, 0, 0, 0, 0, 0xa00, 0x1]
 */
export function ipv6Groups(address: string): number[] | undefined {
  const bare = address.replace(/%.*$/s, '');
  if (isIP(bare) !== 6) return undefined;
  const hex = bare.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_whole, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`,
  );
  const [head = '', tail] = hex.split('::');
  const groups = (text: string) => (text ? text.split(':').map((group) => Number.parseInt(group, 16)) : []);
  if (tail === undefined) return groups(head);
  const [left, right] = [groups(head), groups(tail)];
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The IPv4 address held in two 16-bit groups.
 *
 * @example ipv4Of(0xa00, 0x1) // '10.0.0.1'
 */
export function ipv4Of(high: number, low: number): string {
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}
