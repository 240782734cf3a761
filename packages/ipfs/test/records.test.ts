import { IpfsMetadata, NftMetadata } from '@hallmark/schemas';
import { CID } from 'multiformats/cid';
import { describe, expect, it } from 'vitest';
import { buildIpfsRecord, buildNftMetadata, encodeJson, jsonCidOf } from '../src/index.ts';

const fileId = '3f0c2a52-8a51-4c4e-9d7e-0e6f7f4a1b2c';
const dirCid = CID.parse('bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi');

describe('buildIpfsRecord', () => {
  it('records the supplied data keys, then watermarked, watermarkTypes and fileId', () => {
    const record = buildIpfsRecord({
      data: { description: 'Sunset over the harbour', author: 'Ada Lovelace' },
      watermarkTypes: ['invisible', 'c2pa'],
      fileId,
    });
    expect(IpfsMetadata.parse(record)).toEqual(record);
    // The documented example order; the request's own key order does not matter.
    expect(Object.keys(record)).toEqual([
      'author',
      'description',
      'watermarked',
      'watermarkTypes',
      'fileId',
    ]);
    expect(record).toMatchObject({ watermarked: true, watermarkTypes: ['invisible', 'c2pa'] });
  });

  it('leaves out keys that were not supplied, and gives one CID for one job', async () => {
    const facts = { data: { author: undefined }, watermarkTypes: ['c2pa'], fileId };
    const record = buildIpfsRecord(facts);
    expect(record).toEqual({ watermarked: true, watermarkTypes: ['c2pa'], fileId });
    expect(buildIpfsRecord({ watermarkTypes: ['c2pa'], fileId })).toEqual(record);
    const first = await jsonCidOf(encodeJson(record));
    const again = await jsonCidOf(encodeJson(buildIpfsRecord({ ...facts, data: {} })));
    expect(first.equals(again)).toBe(true);
  });
});

describe('buildNftMetadata', () => {
  it('builds ERC-721 metadata pointing at the file in its IPFS directory', () => {
    const metadata = buildNftMetadata({
      name: 'sunset.jpg',
      description: 'Sunset over the harbour',
      dirCid,
      fileName: 'sunset.jpg',
      data: {
        licenseType: 'CC-BY-4.0',
        author: 'Ada Lovelace',
        creationDate: '2025-01-15',
        copyright: '© 2025 Ada Lovelace',
        description: 'Sunset over the harbour',
      },
      watermarkTypes: ['invisible', 'c2pa'],
      fileId,
    });
    expect(NftMetadata.parse(metadata)).toEqual(metadata);
    expect(metadata).toEqual({
      name: 'sunset.jpg',
      description: 'Sunset over the harbour',
      image: `ipfs://${dirCid}/sunset.jpg`,
      attributes: [
        { trait_type: 'author', value: 'Ada Lovelace' },
        { trait_type: 'creationDate', value: '2025-01-15' },
        { trait_type: 'copyright', value: '© 2025 Ada Lovelace' },
        { trait_type: 'licenseType', value: 'CC-BY-4.0' },
        { trait_type: 'watermarkTypes', value: 'invisible, c2pa' },
        { trait_type: 'fileId', value: fileId },
      ],
    });
  });

  it('percent-encodes the file name in the image URI and refuses names with a slash', () => {
    const input = { name: 'n', description: '', dirCid, watermarkTypes: ['c2pa'], fileId };
    expect(buildNftMetadata({ ...input, fileName: 'my photo#1.png' }).image).toBe(
      `ipfs://${dirCid}/my%20photo%231.png`,
    );
    expect(() => buildNftMetadata({ ...input, fileName: 'a/b.png' })).toThrow(/not a file name/);
  });
});
