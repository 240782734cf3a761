// What c2pa-node found when it validated the store, per manifest as crJSON reports it: the active
// manifest's status codes, each ingredient manifest's codes from the delta recorded against the
// ingredient assertion that brought it in, and each manifest's own ingredient deltas.
import { asArray, asRecord, asString, type JsonRecord } from '../json-view.ts';
import type { CrJsonIngredientDelta, CrJsonStatus, CrJsonStatusCodes } from './crjson-document.ts';

export type StatusCodes = CrJsonStatusCodes;

export interface ReaderResults {
  readonly activeManifest: string | null;
  /** Status codes by manifest label. */
  readonly codes: ReadonlyMap<string, StatusCodes>;
  /** `ingredientDeltas` by the label of the manifest whose ingredient assertions they concern. */
  readonly deltas: ReadonlyMap<string, CrJsonIngredientDelta[]>;
}

const NO_CODES: StatusCodes = { success: [], informational: [], failure: [] };

export function readerResults(store: JsonRecord): ReaderResults {
  const activeManifest = asString(store.active_manifest) ?? null;
  const results = asRecord(store.validation_results);
  const manifests = asRecord(store.manifests) ?? {};
  const codes = new Map<string, StatusCodes>();
  const deltas = new Map<string, CrJsonIngredientDelta[]>();
  if (activeManifest !== null) codes.set(activeManifest, statusCodes(results?.activeManifest));
  for (const item of asArray(results?.ingredientDeltas)) {
    const delta = asRecord(item);
    const uri = asString(delta?.ingredientAssertionURI);
    const location = uri === undefined ? undefined : assertionLocation(uri);
    if (delta === undefined || uri === undefined || location === undefined) continue;
    const validationDeltas = statusCodes(delta.validationDeltas);
    const ownDeltas = deltas.get(location.manifest) ?? [];
    ownDeltas.push({ ingredientAssertionURI: uri, validationDeltas });
    deltas.set(location.manifest, ownDeltas);
    const target = ingredientManifest(manifests, location);
    if (target !== undefined && !codes.has(target)) codes.set(target, validationDeltas);
  }
  return { activeManifest, codes, deltas };
}

export function codesOf(results: ReaderResults, manifest: string): StatusCodes {
  return results.codes.get(manifest) ?? NO_CODES;
}

function statusCodes(value: unknown): StatusCodes {
  const record = asRecord(value);
  return {
    success: statusEntries(record?.success),
    informational: statusEntries(record?.informational),
    failure: statusEntries(record?.failure),
  };
}

/** `{ code, url?, explanation? }`: the only fields a crJSON status entry may have. */
function statusEntries(value: unknown): CrJsonStatus[] {
  return asArray(value).flatMap((item) => {
    const status = asRecord(item);
    const code = asString(status?.code);
    if (code === undefined) return [];
    const url = asString(status?.url);
    const explanation = asString(status?.explanation);
    return [
      {
        code,
        ...(url === undefined ? {} : { url }),
        ...(explanation === undefined ? {} : { explanation }),
      },
    ];
  });
}

/** `self#jumbf=/c2pa/<manifest>/c2pa.assertions/<assertion>` */
function assertionLocation(uri: string): { manifest: string; assertion: string } | undefined {
  const match = /^self#jumbf=\/c2pa\/([^/]+)\/c2pa\.assertions\/([^/]+)$/.exec(uri);
  return match?.[1] === undefined || match[2] === undefined
    ? undefined
    : { manifest: match[1], assertion: match[2] };
}

/** The manifest an ingredient assertion brought in, as c2pa-node's reader links them. */
function ingredientManifest(
  manifests: JsonRecord,
  location: { manifest: string; assertion: string },
): string | undefined {
  const ingredients = asArray(asRecord(manifests[location.manifest])?.ingredients);
  const ingredient = ingredients
    .map(asRecord)
    .find((candidate) => asString(candidate?.label) === location.assertion);
  return asString(ingredient?.active_manifest);
}
