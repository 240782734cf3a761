// The distortions of the evaluation, each implemented with sharp on the encoded marked image and
// returning the attacked image encoded as it would be shared. Pixel-domain edits (blur, noise,
// colour, geometry) are saved as PNG so that only the named distortion is measured.
import sharp, { type Sharp } from 'sharp';

// 98, 90 and 70 are the first generation's target tiers; 95, 85 and 60 the second generation's
// (attacks-v2.ts; both tables in README.md#results).
export type Tier = 98 | 95 | 90 | 85 | 70 | 60;

export interface Attack {
  readonly name: string;
  /** Required exact-payload recovery rate, in percent. */
  readonly target: Tier;
  /** `seed` varies random choices (noise, which corner) between images. */
  readonly apply: (image: Uint8Array, seed: number) => Promise<Uint8Array>;
}

export const png = async (s: Sharp) => new Uint8Array(await s.png().toBuffer());
export const size = async (image: Uint8Array) => {
  const m = await sharp(image).metadata();
  return { width: m.width, height: m.height };
};

export function reencode(format: 'jpeg' | 'webp', quality?: number) {
  return async (image: Uint8Array) =>
    new Uint8Array(
      await (format === 'jpeg'
        ? sharp(image).jpeg({ quality })
        : sharp(image).webp({ quality })
      ).toBuffer(),
    );
}

function resize(factor: number) {
  return async (image: Uint8Array) => {
    const { width, height } = await size(image);
    return png(
      sharp(image).resize(Math.round(width * factor), Math.round(height * factor), { fit: 'fill' }),
    );
  };
}

/** Keeps `area` of the image with the same aspect ratio, centred or from the top-left corner. */
function crop(area: number, where: 'centre' | 'corner') {
  return async (image: Uint8Array, seed: number) => {
    const { width, height } = await size(image);
    const w = Math.round(width * Math.sqrt(area));
    const h = Math.round(height * Math.sqrt(area));
    let left = Math.floor((width - w) / 2);
    let top = Math.floor((height - h) / 2);
    if (where === 'corner') {
      // Each image loses a different corner.
      left = seed & 1 ? width - w : 0;
      top = seed & 2 ? height - h : 0;
    }
    return png(sharp(image).extract({ left, top, width: w, height: h }));
  };
}

/** Rotates, then crops the largest centred rectangle of the original aspect ratio that has no fill. */
export function rotate(degrees: number) {
  return async (image: Uint8Array) => {
    const { width, height } = await size(image);
    const rotated = await sharp(image).rotate(degrees, { background: '#000' }).png().toBuffer();
    const r = await size(rotated);
    const a = (Math.abs(degrees) * Math.PI) / 180;
    // Largest w x h with w/h = width/height inside the rotated width x height rectangle.
    const k = Math.min(
      width / (width * Math.cos(a) + height * Math.sin(a)),
      height / (width * Math.sin(a) + height * Math.cos(a)),
    );
    const w = Math.floor(width * k) - 2;
    const h = Math.floor(height * k) - 2;
    return png(
      sharp(rotated).extract({
        left: Math.floor((r.width - w) / 2),
        top: Math.floor((r.height - h) / 2),
        width: w,
        height: h,
      }),
    );
  };
}

export async function gaussianNoise(
  image: Uint8Array,
  seed: number,
  sigma: number,
): Promise<Uint8Array> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  let state = seed * 2654435761 + 1;
  const uniform = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state + 0.5) / 4294967296;
  };
  for (let i = 0; i < data.length; i++) {
    const noise = sigma * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
    data[i] = Math.max(0, Math.min(255, Math.round((data[i] as number) + noise)));
  }
  return png(
    sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }),
  );
}

export const attacks: readonly Attack[] = [
  { name: 'none', target: 98, apply: async (image) => image },
  { name: 'JPEG q90', target: 98, apply: reencode('jpeg', 90) },
  { name: 'JPEG q75', target: 98, apply: reencode('jpeg', 75) },
  { name: 'PNG round trip', target: 98, apply: (image) => png(sharp(image)) },
  { name: 'WebP round trip (q80)', target: 98, apply: reencode('webp') },
  { name: 'Gaussian blur sigma 1', target: 98, apply: (image) => png(sharp(image).blur(1)) },
  {
    name: 'Gaussian noise sigma 5',
    target: 98,
    apply: (image, seed) => gaussianNoise(image, seed, 5),
  },
  {
    name: 'brightness +20%',
    target: 98,
    apply: (image) => png(sharp(image).modulate({ brightness: 1.2 })),
  },
  {
    name: 'brightness -20%',
    target: 98,
    apply: (image) => png(sharp(image).modulate({ brightness: 0.8 })),
  },
  {
    name: 'contrast +20%',
    target: 98,
    apply: (image) => png(sharp(image).linear(1.2, -0.2 * 128)),
  },
  { name: 'contrast -20%', target: 98, apply: (image) => png(sharp(image).linear(0.8, 0.2 * 128)) },
  { name: 'grayscale', target: 98, apply: (image) => png(sharp(image).greyscale()) },
  { name: 'JPEG q50', target: 90, apply: reencode('jpeg', 50) },
  { name: 'WebP q75', target: 90, apply: reencode('webp', 75) },
  { name: 'resize 0.75x', target: 90, apply: resize(0.75) },
  { name: 'resize 1.5x', target: 90, apply: resize(1.5) },
  { name: 'centre crop 90%', target: 90, apply: crop(0.9, 'centre') },
  { name: 'centre crop 75%', target: 90, apply: crop(0.75, 'centre') },
  { name: 'corner crop 75%', target: 90, apply: crop(0.75, 'corner') },
  { name: 'rotate 2deg + crop', target: 90, apply: rotate(2) },
  { name: 'rotate 5deg + crop', target: 90, apply: rotate(5) },
  { name: 'screenshot 80% PNG', target: 90, apply: resize(0.8) },
  {
    name: 'screenshot 80% + border',
    target: 90,
    apply: async (image) => {
      const { width, height } = await size(image);
      const scaled = await sharp(image)
        .resize(Math.round(width * 0.8), Math.round(height * 0.8), { fit: 'fill' })
        .png()
        .toBuffer();
      const border = Math.round(0.08 * Math.min(width, height));
      return png(
        sharp(scaled).extend({
          top: border,
          bottom: 2 * border,
          left: border,
          right: border,
          background: '#2b2b2b',
        }),
      );
    },
  },
  {
    name: 'social: long side 1080, JPEG q80',
    target: 90,
    apply: async (image) =>
      new Uint8Array(
        await sharp(image)
          .resize(1080, 1080, { fit: 'inside', withoutEnlargement: true })
          .jpeg({ quality: 80 })
          .toBuffer(),
      ),
  },
  { name: 'resize 0.5x', target: 70, apply: resize(0.5) },
  { name: 'centre crop 50%', target: 70, apply: crop(0.5, 'centre') },
  {
    name: 'resize 0.5x + JPEG q75',
    target: 70,
    apply: async (image) => {
      const { width, height } = await size(image);
      return new Uint8Array(
        await sharp(image)
          .resize(Math.round(width / 2), Math.round(height / 2), { fit: 'fill' })
          .jpeg({ quality: 75 })
          .toBuffer(),
      );
    },
  },
  { name: 'JPEG q30', target: 70, apply: reencode('jpeg', 30) },
];
