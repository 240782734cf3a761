// The checks of the C2PA conformance programme's asset rubric for specification 2.4 (programme
// version 0.2) that apply to a backend generator's outputs, run on what signManifest writes: a new
// asset and one opened from an asset that already had a manifest. The lists below are the
// rubric's (c2pa-org/conformance-public, asset-rubrics/asset-rubric-conformance0.2-spec2.4.yml,
// CC BY 4.0); each check names the rubric entry it follows.
import { Reader } from '@contentauth/c2pa-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { C2PA_SPEC_VERSION, readManifest, signManifest } from '../src/c2pa/index.ts';
import { INVISIBLE_MARK_ALGORITHM } from '../src/invisible.ts';
import { c2paFixture, photo, useDevelopmentSigner } from './c2pa-fixtures.ts';

const ALLOWED_ASSERTIONS = new Set([
  'c2pa.hash.data',
  'c2pa.hash.data.part',
  'c2pa.actions.v2',
  'c2pa.ingredient.v3',
  'c2pa.hash.boxes',
  'c2pa.hash.bmff.v3',
  'c2pa.hash.collection.data',
  'c2pa.soft-binding',
  'c2pa.cloud-data',
  'c2pa.embedded-data',
  'c2pa.metadata',
  'c2pa.certificate-status',
  'c2pa.asset-ref',
  'c2pa.asset-type.v2',
  'c2pa.hash.multi-asset',
  'c2pa.thumbnail.claim',
  'c2pa.thumbnail.ingredient',
  'c2pa.icon',
  'c2pa.external-reference',
  'c2pa.time-stamp',
]);
const DEPRECATED_ACTIONS = new Set([
  'c2pa.copied',
  'c2pa.formatted',
  'c2pa.version_updated',
  'c2pa.printed',
  'c2pa.managed',
  'c2pa.produced',
  'c2pa.saved',
  'c2pa.color_adjustments',
  'c2pa.watermarked',
]);
const INCEPTION_ACTIONS = new Set(['c2pa.created', 'c2pa.opened']);

interface Action {
  readonly action: string;
  readonly digitalSourceType?: string;
  readonly parameters?: { readonly ingredients?: readonly unknown[] };
}
interface Assertion {
  readonly label: string;
  readonly data: { readonly actions?: readonly Action[]; readonly allActionsIncluded?: boolean };
}
interface ActiveManifest {
  readonly label: string;
  readonly claimGeneratorInfo: readonly { readonly specVersion?: unknown }[];
  readonly assertions: readonly Assertion[];
  readonly ingredients: readonly {
    readonly relationship: string;
    readonly active_manifest?: string;
    readonly validation_results?: unknown;
  }[];
  readonly failures: readonly { readonly code: string }[];
}

const dev = useDevelopmentSigner();

/** The active manifest as c2pa-node reads it, validated against the development root. */
async function activeManifest(bytes: Uint8Array): Promise<ActiveManifest> {
  const reader = await Reader.fromAsset(
    { buffer: Buffer.from(bytes), mimeType: 'image/jpeg' },
    { trust: { user_anchors: dev.signer.trustAnchorsPem, verify_trust_list: true } },
  );
  const store = reader?.json() as unknown as {
    active_manifest: string;
    manifests: Record<string, Record<string, unknown>>;
    validation_results: { activeManifest: { failure: { code: string }[] } };
  };
  const manifest = store.manifests[store.active_manifest] ?? {};
  return {
    label: store.active_manifest,
    claimGeneratorInfo: manifest.claim_generator_info as ActiveManifest['claimGeneratorInfo'],
    assertions: manifest.assertions as Assertion[],
    ingredients: (manifest.ingredients ?? []) as ActiveManifest['ingredients'],
    failures: store.validation_results.activeManifest.failure,
  };
}

const request = {
  title: 'harbour.jpg',
  fileId: '3f0c2a52-8a51-4c4e-9d7e-0e6f7f4a1b2c',
  data: { author: 'Ada Lovelace', copyright: '© 2025 Ada Lovelace', creationDate: '2025-01-15' },
  softBinding: { algorithm: INVISIBLE_MARK_ALGORITHM, payloadHex: '0123456789abcdef' },
};

const cases: [string, () => Promise<Uint8Array>][] = [
  ['a new asset', () => photo('fig-0.25mp.jpg')],
  ['an asset opened with its manifest', () => c2paFixture('C.jpg')],
];

describe.each(cases)('%s, as the 2.4 rubric checks a backend generator', (_name, input) => {
  let manifest: ActiveManifest;
  let actions: readonly Action[];
  beforeAll(async () => {
    const signed = await signManifest(await input(), request, dev.signer);
    manifest = await activeManifest(signed.bytes);
    actions = manifest.assertions.flatMap((assertion) => assertion.data.actions ?? []);
  });

  it('validates without structural or integrity failures (well_formed, valid)', () => {
    expect(manifest.failures).toEqual([]);
    expect(manifest.label).toMatch(/^urn:c2pa:/); // active_manifest_urn
  });

  it('names the specification version it follows (mandatory_spec_version)', () => {
    expect(C2PA_SPEC_VERSION).toBe('2.4');
    expect(manifest.claimGeneratorInfo[0]?.specVersion).toBe(C2PA_SPEC_VERSION);
  });

  it('uses only current standard assertions; its own are namespaced', () => {
    const labels = manifest.assertions.map((assertion) => assertion.label);
    const standard = labels.filter((label) => label.startsWith('c2pa.'));
    expect(standard.filter((label) => !ALLOWED_ASSERTIONS.has(label))).toEqual([]);
    expect(labels.filter((label) => label.startsWith('stds.'))).toEqual([]);
    expect(labels.filter((label) => !label.startsWith('c2pa.') && !label.includes('.'))).toEqual(
      [],
    );
  });

  it('says all its actions are included, with no deprecated one', () => {
    for (const assertion of manifest.assertions.filter((a) => a.data.actions !== undefined)) {
      expect(assertion.data.allActionsIncluded).toBe(true);
    }
    expect(actions.map((a) => a.action).filter((name) => DEPRECATED_ACTIONS.has(name))).toEqual([]);
    expect(actions.map((a) => a.action)).toContain('c2pa.watermarked.bound');
  });

  it('opens with one inception action, typed as the rubric asks (inception_action_position)', () => {
    const first = actions[0];
    expect(INCEPTION_ACTIONS.has(first?.action ?? '')).toBe(true);
    expect(actions.slice(1).filter((a) => INCEPTION_ACTIONS.has(a.action))).toEqual([]);
    if (first?.action === 'c2pa.created') {
      expect(first.digitalSourceType).toMatch(/^http/); // mandatory_dst_for_created_action
    } else {
      expect(first?.digitalSourceType).toBeUndefined(); // no_dst_for_opened_action
      expect(first?.parameters?.ingredients).toHaveLength(1); // opened_action_ingredient_reference
      const parents = manifest.ingredients.filter((i) => i.relationship === 'parentOf');
      expect(parents).toHaveLength(1);
      // ingredient_v3_mandatory_validation_results
      expect(parents[0]?.active_manifest).toBeDefined();
      expect(parents[0]?.validation_results).toBeDefined();
    }
  });
});

describe('outputs signed before the manifests followed C2PA 2.2', () => {
  it('still read with their author, copyright, date and soft binding', async () => {
    const summary = await readManifest(await c2paFixture('hallmark-0.1-creative-work.jpg'));
    if (!summary.present) throw new Error('expected a manifest');
    expect(summary.actions.map((a) => a.action)).toEqual(['c2pa.created', 'c2pa.watermarked']);
    expect(summary.metadata).toEqual({
      author: 'Ada Lovelace',
      copyright: '© 2025 Ada Lovelace',
      creationDate: '2025-01-15',
      description: 'A fig',
      licenseType: 'CC-BY-4.0',
    });
    expect(summary.softBinding).toEqual({
      algorithm: 'dev.hallmark.invisible.3',
      payloadHex: '0123456789abcdef',
    });
  });
});
