// readCrJson: a file's C2PA manifest store as crJSON, the C2PA's JSON report. c2pa-node validates
// (it exposes no crJSON and no decoded claim in 0.8.0); the claims, assertions and signatures are
// decoded here from the store's own boxes, and the two are joined by manifest label.
import { asBuffer, type OpenedAsset, openAsset, openStoreWithAsset } from '../asset-reader.ts';
import { readerSettings } from '../c2pa-settings.ts';
import { detectC2paFormat, mimeTypeOf } from '../formats.ts';
import { asRecord } from '../json-view.ts';
import type { ReadManifestOptions } from '../read-manifest.ts';
import { isSignedAsset, type SignedAsset } from '../signed-asset.ts';
import { SOFTWARE_AGENT } from '../software-agent.ts';
import { readAssertions } from './assertions.ts';
import { rfc3339 } from './certificate-info.ts';
import { readClaim } from './claim.ts';
import { embeddedManifestStore } from './container-store.ts';
import { readClaimSignature } from './cose-signature.ts';
import type { CrJsonDocument, CrJsonManifest } from './crjson-document.ts';
import { MalformedManifestStoreError } from './errors.ts';
import { readManifestBoxes } from './manifest-boxes.ts';
import { readSignature } from './signature.ts';
import { codesOf, readerResults } from './validation-results.ts';
import { assertSameResultsAt, type SignedManifestTimes } from './validation-time.ts';

export interface ReadCrJsonOptions extends ReadManifestOptions {
  /**
   * PEM bundle of trusted time-stamp authorities (e.g. the C2PA TSA Trust List). c2pa-node 0.8.0
   * keeps one set of anchors for signers and authorities alike, so these roots are added to
   * `trustList` and would anchor a signer too.
   */
  readonly tsaTrustList?: string;
  /**
   * Report the validation as made at this time. Only honoured where c2pa-node's results cannot
   * differ from those at that time (see validation-time.ts); otherwise
   * ValidationTimeUnsupportedError. Without it, the validation time is when the file was read.
   */
  readonly validationTime?: Date;
  /** A detached manifest store (a `.c2pa` sidecar) to validate against the asset's bytes. */
  readonly manifestStore?: Uint8Array;
}

/**
 * The version of the C2PA specification the validation follows: that of c2pa-rs 0.90.1, the
 * validator inside c2pa-node 0.8.0, as its own crJSON exporter states it.
 */
const VALIDATION_SPEC_VERSION = '2.3.0';

const CONTEXT = { '@vocab': 'https://c2pa.org/crjson', extras: 'https://c2pa.org/crjson/extras' };

/**
 * @throws UnsupportedFormatError, UnreadableImageError for bytes that are not a readable image
 * @throws MalformedManifestStoreError when the manifest store cannot be decoded
 * @throws ValidationTimeUnsupportedError when `validationTime` cannot be honoured
 */
export async function readCrJson(
  input: Uint8Array | SignedAsset,
  options: ReadCrJsonOptions = {},
): Promise<CrJsonDocument> {
  const bytes = isSignedAsset(input) ? input.bytes : input;
  const asset = { buffer: asBuffer(bytes), mimeType: mimeTypeOf(detectC2paFormat(bytes)) };
  const trustList = joinBundles(options.trustList, options.tsaTrustList);
  const settings = readerSettings({ trustAnchors: options.trustAnchors, trustList });
  const from = new Date();
  const opened: OpenedAsset =
    options.manifestStore === undefined
      ? await openAsset(asset, settings)
      : await openStoreWithAsset(asBuffer(options.manifestStore), asset, settings);
  const reading = { from, to: new Date() };
  const document = { '@context': CONTEXT, jsonGenerator: generator() };
  if (opened.kind === 'none') return { ...document, manifests: [] };
  if (opened.kind === 'unreadable') throw new MalformedManifestStoreError(opened.reason);

  const store = options.manifestStore ?? embeddedManifestStore(bytes);
  if (store === null) {
    throw new MalformedManifestStoreError('c2pa-node read a store this reader cannot locate');
  }
  const results = readerResults(asRecord(opened.store) ?? {});
  const decoded = readManifestBoxes(store).map((manifest) => {
    const claimSignature = readClaimSignature(manifest.signature, manifest.label);
    return {
      manifest,
      claimSignature,
      claim: readClaim(manifest),
      signature: readSignature(claimSignature),
    };
  });

  if (options.validationTime !== undefined) {
    const times: SignedManifestTimes[] = decoded.map(({ manifest, claimSignature, signature }) => ({
      label: manifest.label,
      codes: codesOf(results, manifest.label),
      certificates: claimSignature.certificates,
      chain: signature.chain,
      carriesOcspResponses: claimSignature.carriesOcspResponses,
    }));
    assertSameResultsAt(
      options.validationTime,
      reading,
      times,
      joinBundles(options.trustAnchors, trustList),
    );
  }
  const validationTime = rfc3339(options.validationTime ?? from);

  const manifests = decoded.map(({ manifest, claim, signature }): CrJsonManifest => {
    const deltas = results.deltas.get(manifest.label);
    return {
      label: manifest.label,
      assertions: readAssertions(manifest),
      [claim.key]: claim.claim,
      signature: signature.signature,
      validationResults: {
        ...codesOf(results, manifest.label),
        specVersion: VALIDATION_SPEC_VERSION,
        validationTime,
      },
      ...(deltas === undefined ? {} : { ingredientDeltas: deltas }),
    };
  });
  return { ...document, manifests: activeFirst(manifests, results.activeManifest) };
}

/** The active manifest first, then the others newest first (the store keeps them oldest first). */
function activeFirst(manifests: CrJsonManifest[], active: string | null): CrJsonManifest[] {
  const newestFirst = [...manifests].reverse();
  const index = newestFirst.findIndex((manifest) => manifest.label === active);
  if (index <= 0) return newestFirst;
  return [newestFirst[index] as CrJsonManifest, ...newestFirst.filter((_, at) => at !== index)];
}

function joinBundles(...bundles: (string | undefined)[]): string | undefined {
  const present = bundles.filter((bundle): bundle is string => bundle !== undefined);
  return present.length === 0 ? undefined : present.join('\n');
}

function generator(): { name: string; version: string } {
  return { name: 'hallmark', version: SOFTWARE_AGENT.version };
}
