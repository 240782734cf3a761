/**
 * TRUST_PROXY as Fastify takes it. Per-IP limits need the client's address: behind a reverse
 * proxy that is in X-Forwarded-For, which may be believed only from the proxies named here
 * (otherwise any client could pick its own address and escape its limit).
 */
export function trustProxySetting(
  value: string,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) {
    // A hop count: trust that many proxies nearest to this server.
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value.split(',').map((address) => address.trim());
}
