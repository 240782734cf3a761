// The result of signing, and the reason the wrong order is hard to write: only signManifest makes
// a SignedAsset, nothing in watermark-core takes one except readManifest, and its bytes sit behind
// a named field, so feeding a signed file to a pixel step (which would re-encode it and silently
// drop the manifest) takes a deliberate `.bytes`.
import type { C2paFormat } from './formats.ts';
import type { SignerIdentity } from './signers.ts';

const signedAssetBrand: unique symbol = Symbol('hallmark.c2pa.SignedAsset');

export interface SignedAsset {
  readonly [signedAssetBrand]: true;
  /** The final file: store or send these bytes as they are; any re-encode drops the manifest. */
  readonly bytes: Uint8Array;
  readonly format: C2paFormat;
  readonly mimeType: string;
  readonly signer: SignerIdentity;
  /**
   * The C2PA manifest store embedded in `bytes`, alone (`application/c2pa`): kept beside the
   * output, it survives a copy that lost its manifest, and a reader validates it against that copy.
   */
  readonly manifestStore: Uint8Array;
  /** Label of the active manifest (`urn:c2pa:…`), the store's identifier. */
  readonly manifestId: string;
  /** What the input carried: `manifest` and `unreadable` inputs became the parent ingredient. */
  readonly parent: 'none' | 'manifest' | 'unreadable';
}

/** Internal to the C2PA module (not exported from the package). */
export function sealSignedAsset(fields: Omit<SignedAsset, typeof signedAssetBrand>): SignedAsset {
  return Object.freeze({ ...fields, [signedAssetBrand]: true as const });
}

export function isSignedAsset(value: unknown): value is SignedAsset {
  return typeof value === 'object' && value !== null && signedAssetBrand in value;
}
