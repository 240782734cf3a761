/** The fingerprint algorithm, as recorded in the manifest and the job (see luma-hash.ts). */
export const FINGERPRINT_ALGORITHM = 'dev.hallmark.phash.1';
