import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  activeManifestOnly,
  manifestLabelsOf,
  readManifest,
  readManifestStore,
  signManifest,
} from '../src/c2pa/index.ts';
import { INVISIBLE_MARK_ALGORITHM } from '../src/invisible.ts';
import { photo, useDevelopmentSigner } from './c2pa-fixtures.ts';

const dev = useDevelopmentSigner();

describe('the manifest store kept beside the output (a .c2pa sidecar)', () => {
  it('is the embedded store, named by its active manifest', async () => {
    const signed = await signManifest(
      await photo('boats-0.6mp.jpg'),
      {
        data: { author: 'Ada' },
        softBinding: { algorithm: INVISIBLE_MARK_ALGORITHM, payloadHex: '0123456789abcdef' },
      },
      dev.signer,
    );
    const embedded = await readManifest(signed, { trustAnchors: dev.signer.trustAnchorsPem });
    expect(embedded.present && embedded.manifestLabel).toBe(signed.manifestId);
    expect(signed.manifestId).toMatch(/^urn:c2pa:/);
    expect(manifestLabelsOf(signed.manifestStore).at(-1)).toBe(signed.manifestId);
    // The store's bytes are inside the file as they are.
    expect(Buffer.from(signed.bytes).includes(Buffer.from(signed.manifestStore))).toBe(true);
  });

  it('a copy re-encoded and resized (manifest dropped) reads with its sidecar: the signature holds, the hard binding names the change', async () => {
    const signed = await signManifest(
      await photo('boats-0.6mp.jpg'),
      { softBinding: { algorithm: INVISIBLE_MARK_ALGORITHM, payloadHex: 'fedcba9876543210' } },
      dev.signer,
    );
    const image = sharp(signed.bytes);
    const { width = 0 } = await image.metadata();
    const stripped = await image
      .resize(Math.round(width / 2))
      .jpeg({ quality: 80 })
      .toBuffer();
    expect((await readManifest(stripped)).present).toBe(false);

    const recovered = await readManifestStore(signed.manifestStore, stripped, {
      trustAnchors: dev.signer.trustAnchorsPem,
    });
    if (!recovered.present) throw new Error('the sidecar did not read');
    expect(recovered.manifestLabel).toBe(signed.manifestId);
    expect(recovered.signer?.isDevelopmentIdentity).toBe(true);
    expect(recovered.softBinding).toEqual({
      algorithm: INVISIBLE_MARK_ALGORITHM,
      payloadHex: 'fedcba9876543210',
    });
    // The claim and its signature are intact; only the bytes it was bound to are not these.
    const codes = recovered.validation.failures.map((failure) => failure.code);
    expect(codes).toContain('assertion.dataHash.mismatch');
    expect(codes.filter((code) => code.startsWith('claimSignature'))).toEqual([]);

    // Against the very file it came from, it validates whole.
    const original = await readManifestStore(signed.manifestStore, signed.bytes, {
      trustAnchors: dev.signer.trustAnchorsPem,
    });
    expect(original.present && original.validation.state).toBe('trusted');
  });

  it('manifestLabelsOf: nothing from bytes that are not a manifest store', () => {
    expect(manifestLabelsOf(new Uint8Array([0, 0, 0, 8, 1, 2, 3, 4]))).toEqual([]);
    expect(manifestLabelsOf(new Uint8Array([0, 0, 0, 200, 0x6a, 0x75, 0x6d, 0x62]))).toEqual([]);
    expect(manifestLabelsOf(new Uint8Array(0))).toEqual([]);
  });
});

describe('activeManifestOnly', () => {
  it('keeps the active manifest of a store holding a history', async () => {
    const first = await signManifest(await photo('boats-0.6mp.jpg'), {}, dev.signer);
    const second = await signManifest(first.bytes, { data: { author: 'Ada' } }, dev.signer);
    const labels = manifestLabelsOf(second.manifestStore);
    expect(labels.length).toBeGreaterThanOrEqual(2);
    expect(labels.at(-1)).toBe(second.manifestId);
    const active = activeManifestOnly(second.manifestStore);
    if (active === null) throw new Error('not a store');
    expect(manifestLabelsOf(active)).toEqual([second.manifestId]);
    expect(active.length).toBeLessThan(second.manifestStore.length);
    expect(activeManifestOnly(new Uint8Array(16))).toBeNull();
  });
});
