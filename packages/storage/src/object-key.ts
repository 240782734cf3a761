/** Thrown for a key that could escape its folder or carries characters no store agrees on. */
export class InvalidObjectKeyError extends Error {
  readonly code = 'invalid_object_key';

  constructor(key: string) {
    super(`invalid object key: ${JSON.stringify(key)}`);
    this.name = 'InvalidObjectKeyError';
  }
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * Keys are slash-separated segments of safe characters only, so a key maps to one file under the
 * local root (no `..`, no absolute paths) and reads the same in every S3-compatible store.
 */
export function assertObjectKey(key: string): string {
  const segments = key.split('/');
  if (segments.length < 2 || !segments.every((s) => SEGMENT.test(s) && !s.includes('..'))) {
    throw new InvalidObjectKeyError(key);
  }
  return key;
}

/**
 * A client's file name made safe as the last key segment: the extension is kept, anything else
 * outside [A-Za-z0-9._-] becomes `_`, and the result is never empty or hidden.
 */
export function safeFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/\.{2,}/g, '.')
    .slice(-120);
  const trimmed = cleaned.replace(/^[._-]+/, '');
  return trimmed === '' ? 'file' : trimmed;
}

/** The file name a download offers: the key's last segment. */
export function fileNameOfKey(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}
