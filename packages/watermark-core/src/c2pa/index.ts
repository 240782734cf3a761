// C2PA provenance: signed manifests with edit history, a soft binding to the invisible mark,
// pluggable signers and trust. See the package README, section "C2PA provenance".

export {
  type CrJsonDocument,
  CrJsonError,
  type CrJsonErrorCode,
  type CrJsonIngredientDelta,
  type CrJsonManifest,
  type CrJsonStatus,
  type CrJsonStatusCodes,
  type CrJsonValidationResults,
  type JsonObject,
  type JsonValue,
  MalformedManifestStoreError,
  type ReadCrJsonOptions,
  readCrJson,
  ValidationTimeUnsupportedError,
} from './crjson/index.ts';
export {
  DEVELOPMENT_ROOT_COMMON_NAME,
  DEVELOPMENT_SIGNER_COMMON_NAME,
} from './dev-ca.ts';
export {
  type DevelopmentIdentity,
  findDevelopmentIdentity,
  loadOrCreateDevelopmentIdentity,
} from './development-identity.ts';
export {
  C2paError,
  type C2paErrorCode,
  InvalidManifestRequestError,
  ManifestSigningError,
  SignerConfigurationError,
  TimestampUnavailableError,
  TokenUnavailableError,
  UnreadableImageError,
  UnsupportedFormatError,
} from './errors.ts';
export { detectC2paFormatOfFile } from './file-format.ts';
export {
  C2PA_FORMATS,
  C2PA_STREAMED_FORMATS,
  type C2paFormat,
  detectC2paFormat,
} from './formats.ts';
export {
  type IngredientThumbnail,
  MAX_THUMBNAIL_BYTES,
  MAX_THUMBNAILS,
  type ThumbnailMimeType,
} from './ingredient-thumbnails.ts';
export {
  C2PA_SPEC_VERSION,
  HALLMARK_ASSERTION_LABEL,
  MANIFEST_UNREADABLE_CODE,
  UNSPECIFIED_DIGITAL_SOURCE_TYPE,
} from './manifest-definition.ts';
export { ManifestRequest, SoftBindingRequest } from './manifest-request.ts';
export { activeManifestOnly, manifestLabelsOf } from './manifest-store.ts';
export type {
  ActionSummary,
  IngredientSummary,
  ManifestMetadata,
  ManifestSummary,
  SignerSummary,
  SoftBindingSummary,
  TrustListName,
  ValidationIssue,
  ValidationState,
  ValidationSummary,
} from './manifest-summary.ts';
export { type ReadManifestOptions, readManifest, readManifestStore } from './read-manifest.ts';
export { readManifestFile } from './read-manifest-file.ts';
export { signManifest } from './sign-manifest.ts';
export { type SignedFile, signManifestFile } from './sign-manifest-file.ts';
export { isSignedAsset, type SignedAsset } from './signed-asset.ts';
export {
  type CallbackSignerConfig,
  createSigner,
  type DevelopmentSignerConfig,
  type FilesSignerConfig,
  type ManifestSigner,
  type Pkcs11SignerConfig,
  type SignerConfig,
  type SignerIdentity,
} from './signers.ts';
export { SIGNING_ALGORITHMS, type SigningAlgorithm } from './signing-algorithms.ts';
export { resolveTrustAnchors, type TrustAnchorSources } from './trust-anchors.ts';
