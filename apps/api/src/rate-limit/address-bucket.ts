import { isIPv4, isIPv6 } from 'node:net';

/**
 * The part of a client address a per-address limit counts: an IPv4 address whole (and one
 * mapped into IPv6 as itself), an IPv6 address by its first `ipv6PrefixLength` bits. One IPv6
 * subscriber holds a /64 or more, 2^64 addresses: counted whole, each would be a bucket of its own
 * and the limit none at all.
 */
export function addressBucket(address: string, ipv6PrefixLength: number): string {
  const bare = address.replace(/%.*$/, '');
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return bare;
  const groups = hextets(bare);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  const kept = groups.map((group, k) => {
    const bits = Math.max(0, Math.min(16, ipv6PrefixLength - 16 * k));
    return bits === 0 ? 0 : group & (0xffff << (16 - bits)) & 0xffff;
  });
  return `${kept.map((g) => g.toString(16)).join(':')}/${ipv6PrefixLength}`;
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted IPv4 part included). */
function hextets(address: string): number[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted !== null) {
    const [a = 0, b = 0, c = 0, d = 0] = (dotted[1] as string).split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  const zeros = new Array<number>(8 - front.length - back.length).fill(0);
  return [...front, ...(tail === undefined ? [] : zeros), ...back];
}
