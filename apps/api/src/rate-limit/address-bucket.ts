import { ipv6Groups, unmappedAddress } from '@hallmark/runtime';

/**
 * The part of a client address a per-address limit counts: an IPv4 address whole (and one
 * mapped into IPv6 as itself), an IPv6 address by its first `ipv6PrefixLength` bits. One IPv6
 * subscriber holds a /64 or more, 2^64 addresses: counted whole, each would be a bucket of its own
 * and the limit none at all.
 */
export function addressBucket(address: string, ipv6PrefixLength: number): string {
  const unmapped = unmappedAddress(address);
  const groups = ipv6Groups(unmapped);
  if (groups === null) return unmapped;
  const kept = groups.map((group, k) => {
    const bits = Math.max(0, Math.min(16, ipv6PrefixLength - 16 * k));
    return bits === 0 ? 0 : group & (0xffff << (16 - bits)) & 0xffff;
  });
  return `${kept.map((group) => group.toString(16)).join(':')}/${ipv6PrefixLength}`;
}
