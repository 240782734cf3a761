// The errors of the crJSON report. Its input is untrusted bytes: every way they can fail to be a
// manifest store ends in one of these, never in a RangeError from a box length or a CBOR decoder.

export type CrJsonErrorCode = 'malformed_manifest_store' | 'validation_time_unsupported';

/** Base of the crJSON errors; branch on `code`, not on the message. */
export class CrJsonError extends Error {
  override name = 'CrJsonError';
  readonly code: CrJsonErrorCode;

  constructor(code: CrJsonErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/**
 * The manifest store's boxes, or the CBOR inside them, do not parse within the limits a store
 * is read under (truncated, a length pointing outside its box, nested or repeated too often).
 */
export class MalformedManifestStoreError extends CrJsonError {
  override name = 'MalformedManifestStoreError';

  constructor(detail: string, options?: ErrorOptions) {
    super('malformed_manifest_store', `The C2PA manifest store is malformed: ${detail}`, options);
  }
}

/**
 * A validation time was asked for that c2pa-node cannot honour: it judges a signature without a
 * trusted time-stamp at the current clock, and a certificate of this file is valid at one of the
 * two instants and not at the other, so its results would not be those of the time asked for.
 */
export class ValidationTimeUnsupportedError extends CrJsonError {
  override name = 'ValidationTimeUnsupportedError';

  constructor(message: string) {
    super('validation_time_unsupported', message);
  }
}
