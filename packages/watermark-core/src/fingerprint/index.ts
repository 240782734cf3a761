export { FINGERPRINT_ALGORITHM } from './algorithm.ts';
export { fingerprintDistance, fingerprintOfLuma, SAME_PICTURE_MAX_DISTANCE } from './luma-hash.ts';
export { fingerprintImage, readMarkAndFingerprint } from './read-fingerprint.ts';
