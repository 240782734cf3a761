import { describe, expect, it } from 'vitest';
import { addressBucket } from './address-bucket.ts';

describe('addressBucket', () => {
  it('counts an IPv4 address whole, also when mapped into IPv6', () => {
    expect(addressBucket('203.0.113.7', 64)).toBe('203.0.113.7');
    expect(addressBucket('::ffff:203.0.113.7', 64)).toBe('203.0.113.7');
    expect(addressBucket('::ffff:cb00:7107', 64)).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its prefix, however it is written', () => {
    const one = addressBucket('2001:db8:1:2:aaaa:bbbb:cccc:dddd', 64);
    expect(one).toBe('2001:db8:1:2:0:0:0:0/64');
    expect(addressBucket('2001:0db8:0001:0002::1', 64)).toBe(one);
    expect(addressBucket('2001:db8:1:2::ffff%eth0', 64)).toBe(one);
    expect(addressBucket('2001:db8:1:3::1', 64)).not.toBe(one);
    expect(addressBucket('2001:db8:1:2:8000::1', 65)).toBe('2001:db8:1:2:8000:0:0:0/65');
    expect(addressBucket('2001:db8:1:2:8000::1', 56)).toBe('2001:db8:1:0:0:0:0:0/56');
    expect(addressBucket('::1', 128)).toBe('0:0:0:0:0:0:0:1/128');
  });
});
