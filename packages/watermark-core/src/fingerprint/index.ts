export { FINGERPRINT_ALGORITHM } from './algorithm.ts';
export {
  fingerprintDistance,
  fingerprintImage,
  readMarkAndFingerprint,
  SAME_PICTURE_MAX_DISTANCE,
} from './perceptual-hash.ts';
