import { describe, expect, it } from 'vitest';
import { IpfsHashParams, RequestIdParams, TokenIdParams } from './path-params.ts';

describe('path parameters', () => {
  it('requestId is a UUID', () => {
    expect(
      RequestIdParams.safeParse({ requestId: '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d' }).success,
    ).toBe(true);
    expect(RequestIdParams.safeParse({ requestId: '42' }).success).toBe(false);
  });

  it.each(['0', '42', '9'.repeat(78)])('tokenId %s is accepted', (tokenId) => {
    expect(TokenIdParams.safeParse({ tokenId }).success).toBe(true);
  });

  it.each(['', '007', '-1', '1e3', '0x2a', '9'.repeat(79)])('tokenId %j is refused', (tokenId) => {
    expect(TokenIdParams.safeParse({ tokenId }).success).toBe(false);
  });

  it.each([
    'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG',
    'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
  ])('ipfsHash %s is accepted', (ipfsHash) => {
    expect(IpfsHashParams.safeParse({ ipfsHash }).success).toBe(true);
  });

  it.each([
    '',
    'Qm123',
    'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbd0',
    'BAFYBEIGDYRZT5SFP7UDM7HU76UH7Y26NF3EFUYLQABF3OCLGTQY55FBZDI',
    '../../etc/passwd',
  ])('ipfsHash %j is refused', (ipfsHash) => {
    expect(IpfsHashParams.safeParse({ ipfsHash }).success).toBe(false);
  });
});
