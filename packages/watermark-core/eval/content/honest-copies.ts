// Honest copies: what people do to a picture without changing what it shows. Each family draws
// its parameters from the seed, so every photo gets its own crop, angle, quality.
import sharp, { type Sharp } from 'sharp';
import { rotate } from '../attacks.ts';

export interface HonestCopy {
  readonly family: string;
  readonly description: string;
  readonly image: Uint8Array;
}

type Random = () => number;
const between = (random: Random, low: number, high: number) => low + (high - low) * random();
const png = async (s: Sharp) => new Uint8Array(await s.png().toBuffer());
const jpeg = async (s: Sharp, quality: number) =>
  new Uint8Array(await s.jpeg({ quality }).toBuffer());

async function sizeOf(image: Uint8Array) {
  const m = await sharp(image).metadata();
  return { width: m.width ?? 0, height: m.height ?? 0 };
}

/** A crop keeping `area` of the picture at `aspect` (w/h relative to the picture's), anywhere. */
async function cropOf(image: Uint8Array, random: Random, area: number, aspect: number) {
  const { width, height } = await sizeOf(image);
  const w = Math.max(1, Math.min(width, Math.round(width * Math.sqrt(area * aspect))));
  const h = Math.max(1, Math.min(height, Math.round(height * Math.sqrt(area / aspect))));
  const left = Math.floor(random() * (width - w + 1));
  const top = Math.floor(random() * (height - h + 1));
  return { region: { left, top, width: w, height: h }, text: `${w}x${h}+${left}+${top}` };
}

/** Crops to a target aspect ratio (width / height), centred. */
async function aspectCrop(image: Uint8Array, ratio: number) {
  const { width, height } = await sizeOf(image);
  const w = Math.min(width, Math.round(height * ratio));
  const h = Math.min(height, Math.round(width / ratio));
  return sharp(image).extract({
    left: (width - w) >> 1,
    top: (height - h) >> 1,
    width: w,
    height: h,
  });
}

type Family = (
  image: Uint8Array,
  random: Random,
) => Promise<{ description: string; image: Uint8Array }>;

export const HONEST_FAMILIES: Record<string, Family> = {
  crop: async (image, random) => {
    const area = between(random, 0.1, 0.9);
    const { region, text } = await cropOf(image, random, area, between(random, 0.6, 1.6));
    return {
      description: `crop ${text} (${Math.round(area * 100)} %)`,
      image: await png(sharp(image).extract(region)),
    };
  },
  'square crop': async (image) => ({
    description: 'centre square, long side 1080, JPEG q85',
    image: await jpeg(
      (await aspectCrop(image, 1)).resize(1080, 1080, { fit: 'inside', withoutEnlargement: true }),
      85,
    ),
  }),
  'feed crop 4:5': async (image) => ({
    description: '4:5, 1080 wide, JPEG q85',
    image: await jpeg(
      (await aspectCrop(image, 0.8)).resize(1080, null, { withoutEnlargement: true }),
      85,
    ),
  }),
  'social pipeline': async (image, random) => {
    const side = random() < 0.5 ? 1080 : 2048;
    const quality = Math.round(between(random, 70, 85));
    return {
      description: `long side ${side}, JPEG q${quality}`,
      image: await jpeg(
        sharp(image).resize(side, side, { fit: 'inside', withoutEnlargement: true }),
        quality,
      ),
    };
  },
  'screenshot with margin': async (image, random) => {
    const { width, height } = await sizeOf(image);
    const margin = () => Math.round(between(random, 0.03, 0.25) * Math.max(width, height));
    const shade = Math.round(between(random, 200, 255));
    return {
      description: 'page margins around it, PNG',
      image: await png(
        sharp(image).extend({
          top: margin(),
          bottom: margin(),
          left: margin(),
          right: margin(),
          background: { r: shade, g: shade, b: shade },
        }),
      ),
    };
  },
  'screenshot with app bars': async (image, random) => {
    // A phone screen: the picture fitted to its width, bars with buttons above and below.
    const screenWidth = Math.round(between(random, 720, 1170));
    const screenHeight = Math.round((screenWidth * 19.5) / 9);
    const fitted = await sharp(image).resize(screenWidth, null).png().toBuffer();
    const { height } = await sizeOf(fitted);
    const top = Math.round(between(random, 0.08, 0.2) * screenHeight);
    const bar = (y: number, h: number) =>
      `<rect x="0" y="${y}" width="${screenWidth}" height="${h}" fill="#202124"/>` +
      `<circle cx="${screenWidth * 0.1}" cy="${y + h / 2}" r="${h / 5}" fill="#8ab4f8"/>` +
      `<rect x="${screenWidth * 0.25}" y="${y + h / 2 - h / 10}" width="${screenWidth * 0.4}" height="${h / 5}" fill="#e8eaed"/>`;
    const bottomY = Math.min(screenHeight - 80, top + height);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${screenWidth}" height="${screenHeight}">${bar(0, top)}${bar(bottomY, screenHeight - bottomY)}</svg>`;
    const canvas = sharp({
      create: { width: screenWidth, height: screenHeight, channels: 3, background: '#000000' },
    });
    return {
      description: `phone screenshot ${screenWidth}x${screenHeight}, app bars`,
      image: await png(
        canvas.composite([
          { input: fitted, left: 0, top },
          { input: Buffer.from(svg), left: 0, top: 0 },
        ]),
      ),
    };
  },
  'rotation with crop': async (image, random) => {
    const degrees = between(random, -30, 30);
    return {
      description: `rotated ${degrees.toFixed(1)} deg, cropped`,
      image: await rotate(degrees)(image),
    };
  },
  rotation: async (image, random) => {
    const degrees = between(random, -30, 30);
    const fill = random() < 0.5 ? '#000000' : '#ffffff';
    return {
      description: `rotated ${degrees.toFixed(1)} deg, ${fill} fill`,
      image: await png(sharp(image).rotate(degrees, { background: fill })),
    };
  },
  mirror: async (image) => ({
    description: 'mirrored left-right',
    image: await png(sharp(image).flop()),
  }),
  flip: async (image) => ({
    description: 'flipped upside down',
    image: await png(sharp(image).flip()),
  }),
  'quarter turn': async (image, random) => {
    const angle = random() < 0.5 ? 90 : 270;
    return { description: `turned ${angle} deg`, image: await png(sharp(image).rotate(angle)) };
  },
  resize: async (image, random) => {
    const factor = Math.exp(between(random, Math.log(0.25), Math.log(2)));
    const { width, height } = await sizeOf(image);
    return {
      description: `resized ${factor.toFixed(2)}x`,
      image: await png(
        sharp(image).resize(
          Math.max(64, Math.round(width * factor)),
          Math.max(64, Math.round(height * factor)),
          { fit: 'fill' },
        ),
      ),
    };
  },
  jpeg: async (image, random) => {
    const quality = Math.round(between(random, 30, 95));
    return { description: `JPEG q${quality}`, image: await jpeg(sharp(image), quality) };
  },
  webp: async (image, random) => {
    const quality = Math.round(between(random, 50, 90));
    return {
      description: `WebP q${quality}`,
      image: new Uint8Array(await sharp(image).webp({ quality }).toBuffer()),
    };
  },
  tone: async (image, random) => {
    const gain = between(random, 0.75, 1.3);
    const offset = between(random, -25, 25);
    const gamma = between(random, 1, 2.2);
    return {
      description: `contrast ${gain.toFixed(2)}, brightness ${offset.toFixed(0)}, gamma ${gamma.toFixed(2)}`,
      image: await jpeg(sharp(image).gamma(gamma).linear(gain, offset), 90),
    };
  },
  colour: async (image, random) => {
    const saturation = between(random, 0.4, 1.6);
    const hue = Math.round(between(random, -30, 30));
    return {
      description: `saturation ${saturation.toFixed(2)}, hue ${hue}`,
      image: await jpeg(sharp(image).modulate({ saturation, hue }), 90),
    };
  },
  tint: async (image, random) => {
    const r = between(random, 0.85, 1.15);
    const b = between(random, 0.85, 1.15);
    return {
      description: `white balance r ${r.toFixed(2)} b ${b.toFixed(2)}`,
      image: await jpeg(sharp(image).linear([r, 1, b], [0, 0, 0]), 90),
    };
  },
  grey: async (image) => ({
    description: 'greyscale, JPEG q90',
    image: await jpeg(sharp(image).greyscale(), 90),
  }),
  blur: async (image, random) => {
    const sigma = between(random, 0.5, 3);
    return {
      description: `blur sigma ${sigma.toFixed(1)}`,
      image: await png(sharp(image).blur(sigma)),
    };
  },
  sharpen: async (image, random) => {
    const sigma = between(random, 0.8, 2.5);
    return {
      description: `sharpen sigma ${sigma.toFixed(1)}`,
      image: await jpeg(sharp(image).sharpen({ sigma }), 90),
    };
  },
  noise: async (image, random) => {
    const sigma = between(random, 2, 10);
    const { data, info } = await sharp(image)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    for (let i = 0; i < data.length; i++) {
      const n =
        sigma * Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
      data[i] = Math.max(0, Math.min(255, Math.round((data[i] as number) + n)));
    }
    return {
      description: `noise sigma ${sigma.toFixed(1)}`,
      image: await png(
        sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }),
      ),
    };
  },
  messaging: async (image) => ({
    description: 'JPEG q70 then q85',
    image: await jpeg(sharp(await jpeg(sharp(image), 70)), 85),
  }),
  'crop, resize, JPEG': async (image, random) => {
    const area = between(random, 0.25, 0.9);
    const { region, text } = await cropOf(image, random, area, between(random, 0.7, 1.4));
    const factor = between(random, 0.5, 1);
    const quality = Math.round(between(random, 60, 90));
    return {
      description: `crop ${text}, ${factor.toFixed(2)}x, JPEG q${quality}`,
      image: await jpeg(
        sharp(await png(sharp(image).extract(region))).resize(
          Math.max(64, Math.round(region.width * factor)),
        ),
        quality,
      ),
    };
  },
};

export const HONEST_FAMILY_NAMES = Object.keys(HONEST_FAMILIES);
