// The normalised view readManifest returns: what a verifier, the API and `hallmark inspect` need,
// independent of c2pa-node's JSON layout (which changes between claim versions).
import type { C2paFormat } from './formats.ts';
import type { IngredientThumbnail } from './ingredient-thumbnails.ts';

/**
 * `trusted`: intact, signed by a certificate that chains to a trust anchor.
 * `valid_untrusted`: intact and well signed, but the signer is not anchored (e.g. no anchors given).
 * `invalid`: something failed: content changed after signing, a broken signature or structure.
 */
export type ValidationState = 'trusted' | 'valid_untrusted' | 'invalid';

/** A C2PA status entry, e.g. `assertion.dataHash.mismatch`. */
export interface ValidationIssue {
  readonly code: string;
  readonly explanation: string | null;
  readonly url: string | null;
}

export interface ValidationSummary {
  readonly state: ValidationState;
  readonly failures: readonly ValidationIssue[];
}

export interface SignerSummary {
  /** Common name of the signing certificate. */
  readonly subject: string | null;
  /** Issuer of the signing certificate, as c2pa-node reports it (its organisation). */
  readonly issuer: string | null;
  readonly algorithm: string | null;
  readonly serialNumber: string | null;
  /**
   * The time of the signature's RFC 3161 time-stamp; null without one. `timeStamp` says whether
   * its authority is trusted.
   */
  readonly signingTime: string | null;
  readonly isDevelopmentIdentity: boolean;
  /**
   * Which configured list the signing certificate chains to: `trust_list` (the public list a
   * deployment adopts, e.g. the C2PA Trust List) or `operator_anchors` (the operator's own
   * roots, and the development root where it is trusted); null when none does.
   */
  readonly trustedBy: TrustListName | null;
  /**
   * Whether the time-stamp's authority is trusted (a configured anchor, or a public root
   * c2pa-node carries); null without a time-stamp.
   */
  readonly timeStamp: 'trusted' | 'untrusted' | null;
}

export type TrustListName = 'trust_list' | 'operator_anchors';

export interface ActionSummary {
  /** e.g. `c2pa.created`, `c2pa.opened`, `c2pa.watermarked.bound`. */
  readonly action: string;
  /** `name version` of the software that acted, when recorded. */
  readonly softwareAgent: string | null;
  readonly when: string | null;
  readonly digitalSourceType: string | null;
}

/** The request's `data` fields as found in the manifest (CreativeWork and Hallmark assertions). */
export interface ManifestMetadata {
  readonly author?: string;
  readonly creationDate?: string;
  readonly description?: string;
  readonly copyright?: string;
  readonly licenseType?: string;
}

export interface SoftBindingSummary {
  readonly algorithm: string;
  readonly payloadHex: string;
}

export interface IngredientSummary {
  readonly title: string | null;
  readonly format: string | null;
  /** `parentOf` for the file this one was made from; `componentOf`, `inputTo` otherwise. */
  readonly relationship: string;
  /**
   * The picture the manifest keeps of the ingredient: a small JPEG, PNG or WebP checked by its
   * magic bytes; null without one, when it is too large, or past the first few of the history.
   */
  readonly thumbnail: IngredientThumbnail | null;
  /** `none`: the ingredient carried no C2PA data; `unreadable`: it did, but it did not parse. */
  readonly provenance: 'manifest' | 'none' | 'unreadable';
  readonly manifestLabel: string | null;
  readonly claimGenerator: string | null;
  readonly signer: SignerSummary | null;
  /**
   * How the ingredient's manifest validated when it was added (recorded in the ingredient), with
   * any change c2pa-node found while reading; null when it had no provenance.
   */
  readonly validation: ValidationSummary | null;
  readonly actions: readonly ActionSummary[];
  /** The ingredient manifest's own ingredients: the history further back. */
  readonly ingredients: readonly IngredientSummary[];
}

export type ManifestSummary =
  | { readonly present: false; readonly format: C2paFormat }
  | {
      readonly present: true;
      readonly format: C2paFormat;
      /** Label of the active manifest; null when the manifest store could not be decoded. */
      readonly manifestLabel: string | null;
      readonly title: string | null;
      readonly claimGenerator: string | null;
      readonly validation: ValidationSummary;
      readonly signer: SignerSummary | null;
      readonly actions: readonly ActionSummary[];
      readonly metadata: ManifestMetadata;
      /** The service's identifiers from the Hallmark assertion. */
      readonly identifiers: { readonly fileId: string | null; readonly requestId: string | null };
      readonly softBinding: SoftBindingSummary | null;
      readonly ingredients: readonly IngredientSummary[];
    };
