/**
 * Stable codes of the C2PA errors. `unsupported_format` and `invalid_image` are the same codes a
 * watermark job fails with (`JOB_ERROR_CODES` in @hallmark/schemas), so the worker can pass them on.
 */
export type C2paErrorCode =
  | 'unsupported_format'
  | 'invalid_image'
  | 'invalid_manifest_request'
  | 'signer_configuration'
  | 'signing_failed'
  | 'signing_unavailable'
  | 'timestamp_unavailable';

/** Base of every error thrown by the C2PA module; branch on `code`, not on the message. */
export class C2paError extends Error {
  override name = 'C2paError';
  readonly code: C2paErrorCode;

  constructor(code: C2paErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** The bytes are not a media format C2PA manifests can be embedded in (by magic bytes). */
export class UnsupportedFormatError extends C2paError {
  override name = 'UnsupportedFormatError';
  /** What the bytes look like, e.g. `bmp`, `pdf`, or `unknown`. */
  readonly format: string;

  constructor(format: string) {
    super(
      'unsupported_format',
      format === 'unknown'
        ? 'Unsupported format: the bytes are not a recognised image, video or audio file'
        : `Unsupported format: ${format} cannot carry a C2PA manifest here`,
    );
    this.format = format;
  }
}

/**
 * The container is recognised but could not be parsed (truncated or corrupt). Named for images,
 * where it began; a video or audio file fails the same way, with the same `invalid_image` code
 * (the job error code callers already handle).
 */
export class UnreadableImageError extends C2paError {
  override name = 'UnreadableImageError';

  constructor(detail: string, options?: ErrorOptions) {
    super('invalid_image', `The file could not be parsed: ${detail}`, options);
  }
}

/** A sign request broke its contract (unknown key, bad date, malformed soft binding...). */
export class InvalidManifestRequestError extends C2paError {
  override name = 'InvalidManifestRequestError';
  /** One line per problem, `path: message`. */
  readonly issues: readonly string[];

  constructor(issues: readonly string[]) {
    super('invalid_manifest_request', `Invalid manifest request: ${issues.join('; ')}`);
    this.issues = issues;
  }
}

/** A signer could not be built: unreadable key or chain, mismatched algorithm, expired cert... */
export class SignerConfigurationError extends C2paError {
  override name = 'SignerConfigurationError';

  constructor(message: string, options?: ErrorOptions) {
    super('signer_configuration', message, options);
  }
}

/** c2pa-node refused to sign (certificate profile, timestamp authority, signing callback...). */
export class ManifestSigningError extends C2paError {
  override name = 'ManifestSigningError';

  constructor(message: string, options?: ErrorOptions) {
    super('signing_failed', `C2PA signing failed: ${message}`, options);
  }
}

/**
 * The signing key's token (an HSM) could not sign now: removed, restarting, its session lost.
 * The same request may work later; `signing_unavailable` is also the job error a worker fails
 * with once every retry has failed.
 */
export class TokenUnavailableError extends C2paError {
  override name = 'TokenUnavailableError';

  constructor(message: string, options?: ErrorOptions) {
    super('signing_unavailable', message, options);
  }
}

/**
 * The configured time-stamp authority did not answer, or answered with no usable token: the
 * signature would carry no trusted time, so nothing is signed. A later attempt may reach it.
 */
export class TimestampUnavailableError extends C2paError {
  override name = 'TimestampUnavailableError';

  constructor(message: string, options?: ErrorOptions) {
    super('timestamp_unavailable', message, options);
  }
}
