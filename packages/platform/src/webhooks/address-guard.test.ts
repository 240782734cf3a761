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
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700::1111', '172.32.0.1'])('allows %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('names private hosts by themselves', () => {
    expect(isPrivateHost('localhost')).toBe(true);
    expect(isPrivateHost('[::1]')).toBe(true);
    expect(isPrivateHost('192.168.0.10')).toBe(true);
    expect(isPrivateHost('hooks.example.com')).toBe(false);
  });

  it('fails a lookup that resolves to loopback', async () => {
    const error = await new Promise<Error | null>((resolve) => {
      guardedLookup('localhost', {}, (failure) => resolve(failure));
    });
    expect(error?.name).toBe('AddressNotAllowedError');
  });
});
