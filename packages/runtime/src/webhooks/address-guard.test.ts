import { describe, expect, it } from 'vitest';
import { guardedLookup, isPrivateAddress, isPrivateHost } from './address-guard.ts';

describe('webhook address guard', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '224.0.0.1',
    // Private IPv4 carried in IPv6, in every notation, and the deprecated or reserved ranges.
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:a00:1',
    '::127.0.0.1',
    '::a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::c0a8:1',
    '2002:c0a8:0101::1',
    '2002:7f00:1::',
    'fec0::1',
    '2001:db8::1',
    'fe80::1%eth0',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '2606:4700::1111',
    '172.32.0.1',
    // Public IPv4 through NAT64 or 6to4 (an IPv6-only deployment reaches it that way).
    '64:ff9b::8.8.8.8',
    '2002:0808:0808::1',
  ])('allows %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('names private hosts by themselves', () => {
    expect(isPrivateHost('localhost')).toBe(true);
    expect(isPrivateHost('localhost.')).toBe(true);
    expect(isPrivateHost('LOCALHOST..')).toBe(true);
    expect(isPrivateHost('api.localhost.')).toBe(true);
    expect(isPrivateHost('[::ffff:7f00:1]')).toBe(true);
    expect(isPrivateHost('[64:ff9b::a9fe:a9fe]')).toBe(true);
    expect(isPrivateHost('[::1]')).toBe(true);
    expect(isPrivateHost('192.168.0.10')).toBe(true);
    expect(isPrivateHost('hooks.example.com')).toBe(false);
  });

  it('fails a lookup that resolves to loopback', async () => {
    const error = await new Promise<Error | null>((resolve) => {
      guardedLookup('localhost', {}, (failure) => resolve(failure));
    });
    expect(error?.name).toBe('AddressNotAllowedError');
    // The tenant's delivery log learns that the name is refused, not what it resolves to.
    expect(error?.message).toBe('localhost resolves to a private address');
  });
});
