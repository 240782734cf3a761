export { FINGERPRINT_ALGORITHM } from './algorithm.ts';
export {
  fingerprintDistance,
  fingerprintImage,
  SAME_PICTURE_MAX_DISTANCE,
} from './perceptual-hash.ts';
