import { describe, expect, it } from 'vitest';
import {
  type IngredientSummary,
  MANIFEST_UNREADABLE_CODE,
  type ManifestSummary,
  readManifest,
  signManifest,
} from '../src/c2pa/index.ts';
import { MAX_HISTORY_ENTRIES, summariseStore } from '../src/c2pa/read-manifest.ts';
import { c2paFixture, useDevelopmentSigner } from './c2pa-fixtures.ts';

/** Active manifest of the c2pa-rs sample CA.jpg, whose parent A.jpg carries no manifest. */
const CA_MANIFEST = 'contentauth:urn:uuid:c2677d4b-0a93-4444-876f-ed2f2d40b8cf';
const C_MANIFEST = 'contentauth:urn:uuid:b2b1f7fa-b119-4de1-9c0d-c97fbea3f2c3';

const dev = useDevelopmentSigner();

function present(summary: ManifestSummary): Extract<ManifestSummary, { present: true }> {
  if (!summary.present) throw new Error('expected a manifest');
  return summary;
}

function only(ingredients: readonly IngredientSummary[]): IngredientSummary {
  expect(ingredients).toHaveLength(1);
  const [ingredient] = ingredients;
  if (ingredient === undefined) throw new Error('expected one ingredient');
  return ingredient;
}

describe('edit history', () => {
  it('keeps the two-level history of CA.jpg under the new manifest', async () => {
    const signed = await signManifest(await c2paFixture('CA.jpg'), { title: 'CA.jpg' }, dev.signer);
    expect(signed.parent).toBe('manifest');
    const summary = present(
      await readManifest(signed, { trustAnchors: dev.signer.trustAnchorsPem }),
    );

    expect(summary.validation.state).toBe('trusted');
    expect(summary.actions[0]?.action).toBe('c2pa.opened');
    const ca = only(summary.ingredients);
    expect(ca).toMatchObject({
      title: 'CA.jpg',
      relationship: 'parentOf',
      provenance: 'manifest',
      manifestLabel: CA_MANIFEST,
      signer: { subject: 'C2PA Signer', signingTime: '2024-08-06T21:53:37+00:00' },
      // c2pa-rs test certificates: intact, but no trust anchor vouches for them.
      validation: { state: 'valid_untrusted' },
    });
    expect(ca.actions.map((action) => action.action)).toEqual([
      'c2pa.opened',
      'c2pa.color_adjustments',
    ]);
    expect(only(ca.ingredients)).toMatchObject({
      title: 'A.jpg',
      relationship: 'parentOf',
      provenance: 'none',
      manifestLabel: null,
      validation: null,
    });
  });

  it('stacks Hallmark manifests: a re-signed file lists the earlier one, then its history', async () => {
    const first = await signManifest(await c2paFixture('CA.jpg'), { fileId: 'first' }, dev.signer);
    const firstLabel = present(await readManifest(first)).manifestLabel;
    const second = await signManifest(first.bytes, { fileId: 'second' }, dev.signer);
    const summary = present(
      await readManifest(second, { trustAnchors: dev.signer.trustAnchorsPem }),
    );

    expect(summary.identifiers.fileId).toBe('second');
    const earlier = only(summary.ingredients);
    expect(earlier).toMatchObject({
      provenance: 'manifest',
      manifestLabel: firstLabel,
      signer: { isDevelopmentIdentity: true },
    });
    // Recorded as untrusted when it was added (signing uses no anchors); c2pa-node's read-time
    // check against the reader's anchors upgrades it.
    expect(earlier.validation).toEqual({ state: 'trusted', failures: [] });
    const withoutAnchors = present(await readManifest(second));
    expect(only(withoutAnchors.ingredients).validation?.state).toBe('valid_untrusted');
    expect(only(earlier.ingredients).manifestLabel).toBe(CA_MANIFEST);
    expect(only(only(earlier.ingredients).ingredients).title).toBe('A.jpg');
  });

  it('signs a file whose manifest no longer matches its pixels and records the failure', async () => {
    const tampered = Buffer.from(await c2paFixture('C.jpg'));
    const at = tampered.length - 2000; // inside the entropy-coded scan
    tampered[at] = (tampered[at] ?? 0) ^ 0xff;
    expect(present(await readManifest(tampered)).validation.state).toBe('invalid');

    const signed = await signManifest(tampered, {}, dev.signer);
    const summary = present(
      await readManifest(signed, { trustAnchors: dev.signer.trustAnchorsPem }),
    );
    // The new manifest is sound; the history says the parent had been altered.
    expect(summary.validation.state).toBe('trusted');
    const parent = only(summary.ingredients);
    expect(parent.manifestLabel).toBe(C_MANIFEST);
    expect(parent.validation?.state).toBe('invalid');
    expect(parent.validation?.failures.map((failure) => failure.code)).toContain(
      'assertion.dataHash.mismatch',
    );
  });

  it('signs a file whose manifest cannot be parsed and records it as unreadable', async () => {
    const corrupt = Buffer.from(await c2paFixture('C.jpg'));
    const at = corrupt.indexOf('c2pa.claim') + 55; // inside the claim's CBOR
    corrupt[at] = (corrupt[at] ?? 0) ^ 0xff;
    const before = present(await readManifest(corrupt));
    expect(before.validation.state).toBe('invalid');
    expect(before.validation.failures[0]?.code).toBe(MANIFEST_UNREADABLE_CODE);

    const signed = await signManifest(corrupt, { title: 'C.jpg' }, dev.signer);
    expect(signed.parent).toBe('unreadable');
    const summary = present(
      await readManifest(signed, { trustAnchors: dev.signer.trustAnchorsPem }),
    );
    expect(summary.validation.state).toBe('trusted');
    expect(summary.actions[0]?.action).toBe('c2pa.opened');
    const parent = only(summary.ingredients);
    expect(parent).toMatchObject({
      title: 'C.jpg',
      provenance: 'unreadable',
      validation: { state: 'invalid' },
    });
    expect(parent.validation?.failures[0]).toMatchObject({
      code: MANIFEST_UNREADABLE_CODE,
      explanation: expect.stringMatching(/CBOR/),
    });
  });
});

describe('crafted stores', () => {
  it('summarises at most MAX_HISTORY_ENTRIES ingredients of a store whose manifests list the next ten times each', () => {
    // Sixteen manifests, each naming the next as ten ingredients: 10^16 entries if walked as a tree.
    const label = (level: number) => `urn:c2pa:crafted-${level}`;
    const manifests = Object.fromEntries(
      Array.from({ length: 17 }, (_, level) => [
        label(level),
        {
          title: `level ${level}`,
          ingredients:
            level === 16
              ? []
              : Array.from({ length: 10 }, (_, k) => ({
                  title: `copy ${k}`,
                  label: `c2pa.ingredient.v3__${k}`,
                  relationship: 'componentOf',
                  active_manifest: label(level + 1),
                })),
        },
      ]),
    );
    const summary = summariseStore({ active_manifest: label(0), manifests });
    const count = (ingredients: readonly IngredientSummary[]): number =>
      ingredients.reduce((sum, ingredient) => sum + 1 + count(ingredient.ingredients), 0);
    expect(count(summary.ingredients)).toBe(MAX_HISTORY_ENTRIES);
    // The first branch is followed as deep as the history goes before the budget runs out.
    let depth = 0;
    for (let level = summary.ingredients; level.length > 0; level = level[0]?.ingredients ?? []) {
      depth++;
    }
    expect(depth).toBe(16);
  });

  it('a store whose first box declares a terabyte-long extended length is invalid, not absent', async () => {
    const sample = await c2paFixture('CA.jpg');
    expect(present(await readManifest(sample)).validation.state).not.toBe('invalid');
    // The first APP11 segment: marker, length, "JP", instance, sequence, then the store's box.
    const segment = sample.indexOf(Buffer.from([0xff, 0xeb]));
    const box = segment + 12;
    expect(sample.toString('latin1', box + 4, box + 8)).toBe('jumb');
    // LBox 1 says an eight-byte XLBox follows the type: inserted, and the segment made longer.
    const crafted = Buffer.concat([
      sample.subarray(0, box),
      Buffer.from([0, 0, 0, 1]),
      sample.subarray(box + 4, box + 8),
      Buffer.from([0, 0, 1, 0, 0, 0, 0, 0]),
      sample.subarray(box + 8),
    ]);
    crafted.writeUInt16BE(sample.readUInt16BE(segment + 2) + 8, segment + 2);
    const summary = present(await readManifest(crafted));
    expect(summary.validation.state).toBe('invalid');
    expect(summary.validation.failures[0]?.code).toBe(MANIFEST_UNREADABLE_CODE);
    // A file with no store at all still has none.
    expect((await readManifest(await c2paFixture('no_manifest.jpg'))).present).toBe(false);
  });
});
