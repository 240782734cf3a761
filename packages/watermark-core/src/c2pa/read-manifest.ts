// readManifest: validates the C2PA manifest store of an image, video or audio file and returns the normalised summary,
// including the ingredient chain (the edit history) walked through the store's manifests.
import { asBuffer, type OpenedAsset, openAsset, openStoreWithAsset } from './asset-reader.ts';
import { readerSettings } from './c2pa-settings.ts';
import { type C2paFormat, detectC2paFormat, mimeTypeOf } from './formats.ts';
import {
  type IngredientThumbnail,
  loadThumbnails,
  type ThumbnailReference,
  thumbnailReferenceOf,
} from './ingredient-thumbnails.ts';
import { asArray, asRecord, asString, type JsonRecord, stringOrNull } from './json-view.ts';
import {
  actionsOf,
  claimGeneratorOf,
  identifiersOf,
  metadataOf,
  signerOf,
  softBindingOf,
} from './manifest-assertions.ts';
import { MANIFEST_UNREADABLE_CODE, UNREADABLE_PARENT_METADATA_KEY } from './manifest-definition.ts';
import type { IngredientSummary, ManifestSummary, ValidationIssue } from './manifest-summary.ts';
import { isSignedAsset, type SignedAsset } from './signed-asset.ts';
import { parseIssues, summariseFailures, summariseStoreValidation } from './validation.ts';

export interface ReadManifestOptions {
  /**
   * PEM bundle of trusted root certificates. Without it every signer reads as untrusted; include
   * the development root (`ManifestSigner.trustAnchorsPem`) to trust the service's own signatures.
   */
  readonly trustAnchors?: string;
  /**
   * PEM bundle of a public trust list the deployment adopts (the C2PA Trust List and the C2PA TSA
   * Trust List). A signer chaining to it reads `trustedBy: trust_list`; to `trustAnchors`,
   * `operator_anchors`.
   */
  readonly trustList?: string;
}

/** A history deeper than this is cut: it bounds the work a crafted file can cause. */
const MAX_INGREDIENT_DEPTH = 16;
/**
 * At most this many ingredients are summarised in all: a store whose manifests each list the next
 * one many times would otherwise expand into (times per level)^depth entries from a few kilobytes.
 */
export const MAX_HISTORY_ENTRIES = 256;

/**
 * @throws UnsupportedFormatError when the bytes are not a supported container
 * @throws UnreadableImageError when the container itself does not parse
 */
export async function readManifest(
  input: Uint8Array | SignedAsset,
  options: ReadManifestOptions = {},
): Promise<ManifestSummary> {
  const bytes = isSignedAsset(input) ? input.bytes : input;
  const format = detectC2paFormat(bytes);
  const opened = await openAsset(
    { buffer: asBuffer(bytes), mimeType: mimeTypeOf(format) },
    readerSettings(options),
  );
  return summarise(opened, format);
}

/**
 * Validates a detached manifest store (`SignedAsset.manifestStore`, a `.c2pa` sidecar) against an
 * image: for a copy that lost its embedded manifest. The signature and certificates validate as
 * usual; a copy whose pixels changed (re-encoded, resized) reports its hard-binding mismatch.
 */
export async function readManifestStore(
  store: Uint8Array,
  image: Uint8Array,
  options: ReadManifestOptions = {},
): Promise<ManifestSummary> {
  const format = detectC2paFormat(image);
  const opened = await openStoreWithAsset(
    asBuffer(store),
    { buffer: asBuffer(image), mimeType: mimeTypeOf(format) },
    readerSettings(options),
  );
  return summarise(opened, format);
}

/** The summary of an opened asset (shared with readManifestFile). */
export async function summarise(opened: OpenedAsset, format: C2paFormat): Promise<ManifestSummary> {
  if (opened.kind === 'none') return { present: false, format };
  if (opened.kind === 'unreadable') {
    return {
      present: true,
      format,
      manifestLabel: null,
      title: null,
      claimGenerator: null,
      validation: {
        state: 'invalid',
        failures: [{ code: MANIFEST_UNREADABLE_CODE, explanation: opened.reason, url: null }],
      },
      signer: null,
      actions: [],
      metadata: {},
      identifiers: { fileId: null, requestId: null },
      softBinding: null,
      ingredients: [],
    };
  }
  const store = asRecord(opened.store) ?? {};
  // The history is walked once to learn which thumbnails it shows, in its order, so the bounds
  // apply to the ingredients a reader sees first; then again with the ones that passed.
  const references: ThumbnailReference[] = [];
  summariseStore(store, (reference) => {
    references.push(reference);
    return null;
  });
  const thumbnails = await loadThumbnails(references, opened.readResource);
  return {
    format,
    ...summariseStore(store, (reference) => thumbnails.get(reference.identifier) ?? null),
  };
}

/** The checked thumbnail an ingredient's reference resolved to, or null. */
export type ThumbnailLookup = (reference: ThumbnailReference) => IngredientThumbnail | null;

/** What every step of one history walk shares. */
interface HistoryWalk {
  readonly manifests: JsonRecord;
  readonly deltas: Deltas;
  readonly thumbnailOf: ThumbnailLookup;
  readonly budget: { left: number };
}

/** The summary of a store as c2pa-node's reader gives it (exported for the history's tests). */
export function summariseStore(
  store: JsonRecord,
  thumbnailOf: ThumbnailLookup = () => null,
): Omit<Extract<ManifestSummary, { present: true }>, 'format'> {
  const manifests = asRecord(store.manifests) ?? {};
  const label = asString(store.active_manifest);
  const active = (label === undefined ? undefined : asRecord(manifests[label])) ?? {};
  const results = asRecord(store.validation_results);
  const activeResults = asRecord(results?.activeManifest);
  const failures = parseIssues(activeResults?.failure ?? store.validation_status);
  const statuses = [
    ...parseIssues(activeResults?.success),
    ...parseIssues(activeResults?.informational),
    ...failures,
  ];
  const deltas = ingredientDeltas(results?.ingredientDeltas);
  return {
    present: true,
    manifestLabel: label ?? null,
    title: stringOrNull(active.title),
    claimGenerator: claimGeneratorOf(active),
    validation: summariseStoreValidation(store.validation_state, failures),
    signer: signerOf(active, statuses),
    actions: actionsOf(active),
    metadata: metadataOf(active),
    identifiers: identifiersOf(active),
    softBinding: softBindingOf(active),
    ingredients: ingredientsOf(
      active,
      label,
      { manifests, deltas, thumbnailOf, budget: { left: MAX_HISTORY_ENTRIES } },
      new Set(label ? [label] : []),
      1,
    ),
  };
}

/** Read-time validation changes per ingredient assertion URI (active manifest only). */
type Deltas = ReadonlyMap<string, { failures: ValidationIssue[]; successCodes: string[] }>;

function ingredientDeltas(value: unknown): Deltas {
  const deltas = new Map<string, { failures: ValidationIssue[]; successCodes: string[] }>();
  for (const entry of asArray(value)) {
    const delta = asRecord(entry);
    const uri = asString(delta?.ingredientAssertionURI);
    const validation = asRecord(delta?.validationDeltas);
    if (uri === undefined) continue;
    deltas.set(uri, {
      failures: parseIssues(validation?.failure),
      successCodes: parseIssues(validation?.success).map((issue) => issue.code),
    });
  }
  return deltas;
}

function ingredientsOf(
  manifest: JsonRecord,
  manifestLabel: string | undefined,
  walk: HistoryWalk,
  visited: ReadonlySet<string>,
  depth: number,
): IngredientSummary[] {
  if (depth > MAX_INGREDIENT_DEPTH) return [];
  return asArray(manifest.ingredients).flatMap((entry) => {
    const ingredient = asRecord(entry);
    if (ingredient === undefined || walk.budget.left <= 0) return [];
    walk.budget.left--;
    const assertionLabel = asString(ingredient.label);
    const delta =
      manifestLabel === undefined || assertionLabel === undefined
        ? undefined
        : walk.deltas.get(`self#jumbf=/c2pa/${manifestLabel}/c2pa.assertions/${assertionLabel}`);
    return [summariseIngredient(ingredient, delta, walk, visited, depth)];
  });
}

function summariseIngredient(
  ingredient: JsonRecord,
  delta: { failures: ValidationIssue[]; successCodes: string[] } | undefined,
  walk: HistoryWalk,
  visited: ReadonlySet<string>,
  depth: number,
): IngredientSummary {
  const reference = thumbnailReferenceOf(ingredient);
  const base = {
    title: stringOrNull(ingredient.title),
    format: stringOrNull(ingredient.format),
    relationship: asString(ingredient.relationship) ?? 'componentOf',
    thumbnail: reference === undefined ? null : walk.thumbnailOf(reference),
  };
  const label = asString(ingredient.active_manifest);
  const manifest = label === undefined ? undefined : asRecord(walk.manifests[label]);
  if (label === undefined || manifest === undefined) {
    const unreadable = unreadableParentRecord(ingredient);
    return {
      ...base,
      provenance: unreadable === undefined ? 'none' : 'unreadable',
      manifestLabel: null,
      claimGenerator: null,
      signer: null,
      validation: unreadable === undefined ? null : summariseFailures(unreadable),
      actions: [],
      ingredients: [],
    };
  }
  const recorded = recordedFailures(ingredient);
  // A read-time success such as `signingCredential.trusted` overrides what was recorded then.
  const current = recorded.filter((issue) => !delta?.successCodes.includes(trustedCode(issue)));
  const cycle = visited.has(label);
  return {
    ...base,
    provenance: 'manifest',
    manifestLabel: label,
    claimGenerator: claimGeneratorOf(manifest),
    signer: signerOf(manifest),
    validation: summariseFailures([...current, ...(delta?.failures ?? [])]),
    actions: actionsOf(manifest),
    ingredients: cycle
      ? []
      : ingredientsOf(manifest, label, walk, new Set([...visited, label]), depth + 1),
  };
}

/** Claim v2 ingredients record `validation_results`; v1 ones a flat `validation_status` list. */
function recordedFailures(ingredient: JsonRecord): ValidationIssue[] {
  const results = asRecord(asRecord(ingredient.validation_results)?.activeManifest);
  return parseIssues(results === undefined ? ingredient.validation_status : results.failure);
}

function trustedCode(issue: ValidationIssue): string {
  return issue.code === 'signingCredential.untrusted' ? 'signingCredential.trusted' : '';
}

/** The failure Hallmark wrote into an ingredient whose manifest could not be parsed at all. */
function unreadableParentRecord(ingredient: JsonRecord): ValidationIssue[] | undefined {
  const record = asRecord(asRecord(ingredient.metadata)?.[UNREADABLE_PARENT_METADATA_KEY]);
  if (record === undefined) return undefined;
  const failures = parseIssues(record.failures);
  return failures.length > 0
    ? failures
    : [{ code: MANIFEST_UNREADABLE_CODE, explanation: null, url: null }];
}
