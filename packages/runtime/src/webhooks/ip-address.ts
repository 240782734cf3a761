import { isIPv4, isIPv6 } from 'node:net';

/**
 * The eight 16-bit groups of an IPv6 address, however it is written (`::` shorthand, a trailing
 * dotted IPv4 part, a zone id); null when it is not one.
 */
export function ipv6Groups(address: string): number[] | null {
  let text = address.replace(/%.*$/, '');
  if (!isIPv6(text)) return null;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  const zeros = new Array<number>(8 - front.length - back.length).fill(0);
  return [...front, ...(tail === undefined ? [] : zeros), ...back];
}

/** Dotted IPv4 text of two 16-bit groups. */
export function ipv4OfGroups(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** An IPv4 address as itself; one mapped into IPv6 (`::ffff:a.b.c.d`, any notation) as IPv4. */
export function unmappedAddress(address: string): string {
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (groups === null) return address;
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  return mapped ? ipv4OfGroups(groups[6] ?? 0, groups[7] ?? 0) : address;
}
