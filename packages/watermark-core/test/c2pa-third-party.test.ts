import { describe, expect, it } from 'vitest';
import { readManifest } from '../src/c2pa/index.ts';
import { c2paFixture, useDevelopmentSigner } from './c2pa-fixtures.ts';

// Files produced by the C2PA reference implementation (c2pa-rs), signed with its test
// certificates: intact, but no trust anchor of ours vouches for them.

const dev = useDevelopmentSigner();

describe('reading third-party C2PA files', () => {
  it('reads C.jpg: one manifest, valid but signed by an untrusted test certificate', async () => {
    const summary = await readManifest(await c2paFixture('C.jpg'));
    expect(summary).toEqual({
      present: true,
      format: 'jpeg',
      manifestLabel: 'contentauth:urn:uuid:b2b1f7fa-b119-4de1-9c0d-c97fbea3f2c3',
      title: 'C.jpg',
      claimGenerator: 'make_test_images 0.33.1, c2pa-rs 0.33.1',
      validation: {
        state: 'valid_untrusted',
        failures: [
          {
            code: 'signingCredential.untrusted',
            explanation: 'signing certificate untrusted',
            url: 'self#jumbf=/c2pa/contentauth:urn:uuid:b2b1f7fa-b119-4de1-9c0d-c97fbea3f2c3/c2pa.signature',
          },
        ],
      },
      signer: {
        subject: 'C2PA Signer',
        issuer: 'C2PA Test Signing Cert',
        algorithm: 'ps256',
        serialNumber: '720724073027128164015125666832722375746636448153',
        signingTime: '2024-08-06T21:53:37+00:00',
        isDevelopmentIdentity: false,
        // No anchor of ours vouches for the dev.signer; c2pa-node trusts the time-stamp's authority
        // by its own list.
        trustedBy: null,
        timeStamp: 'trusted',
      },
      actions: [
        {
          action: 'c2pa.created',
          softwareAgent: 'Make Test Images 0.33.1',
          when: null,
          digitalSourceType: 'http://cv.iptc.org/newscodes/digitalsourcetype/algorithmicMedia',
        },
      ],
      metadata: { author: 'John Doe' },
      identifiers: { fileId: null, requestId: null },
      softBinding: null,
      ingredients: [],
    });
  });

  it('reads CA.jpg with its parent ingredient A.jpg, which has no provenance of its own', async () => {
    const summary = await readManifest(await c2paFixture('CA.jpg'));
    expect(summary).toMatchObject({
      present: true,
      validation: { state: 'valid_untrusted' },
      actions: [{ action: 'c2pa.opened' }, { action: 'c2pa.color_adjustments' }],
      ingredients: [
        {
          title: 'A.jpg',
          format: 'image/jpeg',
          relationship: 'parentOf',
          provenance: 'none',
          manifestLabel: null,
          validation: null,
          ingredients: [],
        },
      ],
    });
  });

  it('does not trust the test certificates because of the service’s own development root', async () => {
    const summary = await readManifest(await c2paFixture('C.jpg'), {
      trustAnchors: dev.signer.trustAnchorsPem,
    });
    expect(summary.present && summary.validation.state).toBe('valid_untrusted');
  });

  it.each([
    ['no_manifest.jpg', 'jpeg'],
    ['sample1.png', 'png'],
    ['sample1.webp', 'webp'],
    ['libpng-test.png', 'png'],
  ])('reports %s as carrying no manifest', async (file, format) => {
    expect(await readManifest(await c2paFixture(file))).toEqual({ present: false, format });
  });
});
