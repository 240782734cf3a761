// Small images (under 0.4 MP) hold few copies of the tile (a 0.15 MP avatar about 8, a 12 MP photo
// 64), so their mark needs all the strength the quality budget allows. Many of them sit well
// inside it at the default flat-area amplitude (PSNR 44-48 dB, SSIM 0.99), which is set for the
// worst case. For these the flat-area amplitude is raised as far as the encoded file stays within
// MIN_SSIM and MIN_PSNR of the original, measured on the file itself: at this size an encode and
// a decode cost a few milliseconds.
import { type DecodedImage, decodeImage, type EncodeOptions, encodeImage } from './image-io.ts';
import { addMarkField, markField } from './mark-field.ts';
import type { MarkGrid } from './mark-geometry.ts';
import { DEFAULT_STRENGTH, perceptualStrength } from './perceptual-strength.ts';
import { psnr, ssimAgainst } from './quality-metrics.ts';

/** Images below this many pixels try the stronger flat-area amplitudes. */
export const SMALL_IMAGE_PIXELS = 400_000;
/**
 * Flat-area amplitudes tried, weakest first (the default is 1.2): a stronger one is tried only
 * when the weaker one fits, so an image with no room costs one trial.
 */
const FLAT_CANDIDATES = [1.5, 1.8] as const;
/** Quality the encoded file must keep against the original (issue 16: 0.985 and 40 dB). */
const MIN_SSIM = 0.9865;
const MIN_PSNR = 40.5;

/**
 * The encoded marked file of a small 8-bit RGB image at the strongest candidate amplitude whose
 * file keeps MIN_SSIM and MIN_PSNR (quality falls as the amplitude rises), or null when the image
 * is not such an image or no candidate fits (the caller then marks it at the default strength).
 */
export async function markSmallImage(
  decoded: DecodedImage,
  grid: MarkGrid,
  contrastLuma: Float32Array,
  payload: bigint,
  options: EncodeOptions,
): Promise<Uint8Array | null> {
  const { data, width, height, channels, hasAlpha } = decoded.pixels;
  const eligible =
    data instanceof Uint8Array &&
    channels === 3 &&
    !hasAlpha &&
    width * height < SMALL_IMAGE_PIXELS;
  if (!eligible) return null;
  const original = { data, width, height, channels };
  // Every other window in each direction: within about 1e-4 of the full SSIM, four times cheaper.
  const ssimOf = ssimAgainst(original, 2);
  let fitting: Uint8Array | null = null;
  for (const flat of FLAT_CANDIDATES) {
    const strength = perceptualStrength(contrastLuma, grid, { ...DEFAULT_STRENGTH, flat });
    const marked = { ...decoded.pixels, data: data.slice() };
    addMarkField(marked, grid, markField(grid, strength, payload));
    const encoded = await encodeImage(decoded, marked, options);
    // Read back exactly as the input was read (same format, depth and colour space).
    const back = (await decodeImage(encoded, width * height, decoded)).pixels.data;
    if (back.length !== data.length) break;
    const file = { data: back as Uint8Array, width, height, channels };
    if (psnr(original, file) < MIN_PSNR || ssimOf(file) < MIN_SSIM) break;
    fitting = encoded;
  }
  return fitting;
}
