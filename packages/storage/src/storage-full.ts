/** The error codes with which a file system says it cannot take more bytes. */
const FULL_CODES: ReadonlySet<string> = new Set([
  'ENOSPC', // no space left on the device
  'EDQUOT', // the user's disk quota is spent
  'EFBIG', // the process's file size limit (RLIMIT_FSIZE) or the file system's maximum
]);

/**
 * The store cannot take more bytes. Carries the job error code `storage_full`, so a job fails
 * with it at once (more attempts would only fill the log), and the API answers 507.
 */
export class StorageFullError extends Error {
  readonly code = 'storage_full';

  constructor(cause: unknown) {
    super('the storage is full', { cause });
    this.name = 'StorageFullError';
  }
}

/** The error as a StorageFullError when it says the disk is full, else unchanged. */
export function asStorageFull(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && FULL_CODES.has(code) ? new StorageFullError(error) : error;
}
