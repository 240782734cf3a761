// The shape of a crJSON document (docs/c2pa/crJSON-schema.json), as readCrJson fills it.
import type { JsonObject } from './json-value.ts';

export interface CrJsonStatus {
  readonly code: string;
  readonly url?: string;
  readonly explanation?: string;
}

export interface CrJsonStatusCodes {
  readonly success: readonly CrJsonStatus[];
  readonly informational: readonly CrJsonStatus[];
  readonly failure: readonly CrJsonStatus[];
}

/** How an ingredient's manifest validates now, against what its ingredient assertion recorded. */
export interface CrJsonIngredientDelta {
  readonly ingredientAssertionURI: string;
  readonly validationDeltas: CrJsonStatusCodes;
}

export interface CrJsonValidationResults extends CrJsonStatusCodes {
  readonly specVersion: string;
  readonly validationTime: string;
}

export interface CrJsonManifest {
  readonly label: string;
  /** Each assertion's content by label (its instance suffix included). */
  readonly assertions: JsonObject;
  /** The version 1 claim; a manifest has this or `claim.v2`. */
  readonly claim?: JsonObject;
  readonly 'claim.v2'?: JsonObject;
  /** `algorithm`, the signer's `certificateInfo`, `timeStampInfo` when time-stamped. */
  readonly signature: JsonObject;
  readonly validationResults: CrJsonValidationResults;
  readonly ingredientDeltas?: readonly CrJsonIngredientDelta[];
}

export interface CrJsonDocument {
  readonly '@context': { readonly '@vocab': string; readonly extras: string };
  /** The active manifest first, then the others newest first. */
  readonly manifests: readonly CrJsonManifest[];
  readonly jsonGenerator: { readonly name: string; readonly version: string };
}
