// crJSON, the C2PA's JSON report of a manifest store, built from c2pa-node's validation and the
// store's own boxes. See the package README, section "crJSON".
export type {
  CrJsonDocument,
  CrJsonIngredientDelta,
  CrJsonManifest,
  CrJsonStatus,
  CrJsonStatusCodes,
  CrJsonValidationResults,
} from './crjson-document.ts';
export {
  CrJsonError,
  type CrJsonErrorCode,
  MalformedManifestStoreError,
  ValidationTimeUnsupportedError,
} from './errors.ts';
export type { JsonObject, JsonValue } from './json-value.ts';
export { type ReadCrJsonOptions, readCrJson } from './read-crjson.ts';
