import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { ipv4OfGroups, ipv6Groups } from './ip-address.ts';

// A key's webhook must not reach the deployment's own network (its database, metadata services,
// admin ports): loopback, link-local, private, shared and multicast ranges are refused unless the
// deployment allows them. The check runs on the addresses a connection actually uses (in the
// socket's lookup), so a name that resolves elsewhere later cannot slip through.

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  // Discard-only, documentation, and the deprecated site-local range.
  ['100::', 64],
  ['2001:db8::', 32],
  ['fec0::', 10],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/**
 * The IPv4 address an IPv6 one carries, where it is the one reached: mapped (`::ffff:0:0/96`),
 * IPv4-compatible (`::/96`), NAT64 (`64:ff9b::/96`, and the local-use `64:ff9b:1::/48`) and 6to4
 * (`2002::/16`). A webhook may reach a public IPv4 address that way, never a private one.
 */
function embeddedIpv4(address: string): string | null {
  const groups = ipv6Groups(address);
  if (groups === null) return null;
  const [g0, g1 = 0, g2 = 0, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  const zeros = (...values: (number | undefined)[]) => values.every((value) => value === 0);
  if (zeros(g0, g1, g2, g3, g4) && (g5 === 0xffff || g5 === 0)) return ipv4OfGroups(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && (zeros(g2, g3, g4, g5) || g2 === 1)) {
    return ipv4OfGroups(g6, g7);
  }
  if (g0 === 0x2002) return ipv4OfGroups(g1, g2);
  return null;
}

/** Whether an IP address is in a range a webhook may not reach by default. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return true;
  if (family === 4) return blocked.check(bare, 'ipv4');
  const carried = embeddedIpv4(bare);
  if (carried !== null && blocked.check(carried, 'ipv4')) return true;
  return blocked.check(bare, 'ipv6');
}

/** A host that names a refused address by itself (an IP literal or `localhost`). */
export function isPrivateHost(hostname: string): boolean {
  // A trailing dot names the same host (`localhost.`), and brackets hold an IPv6 literal.
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && isPrivateAddress(host);
}

export class AddressNotAllowedError extends Error {
  override readonly name = 'AddressNotAllowedError';
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for sockets that fails with AddressNotAllowedError on a refused address. */
export function guardedLookup(
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { ...options, all: true } as { all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.some((entry) => isPrivateAddress(entry.address))) {
      // Which address is not said: the delivery log is the tenant's, and would tell it what a
      // name resolves to inside the deployment's network.
      return callback(new AddressNotAllowedError(`${hostname} resolves to a private address`), []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (first === undefined) return callback(new Error(`${hostname} has no address`), []);
    callback(null, first.address, first.family);
  });
}
