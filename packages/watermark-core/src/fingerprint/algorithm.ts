/** The fingerprint algorithm, as recorded in the manifest and the job (see perceptual-hash.ts). */
export const FINGERPRINT_ALGORITHM = 'dev.hallmark.phash.1';
