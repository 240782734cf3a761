// Forgeries: a mark moved to another picture (transplants), and a marked picture changed in one
// place (local edits), each with what a verifier should find.
import sharp, { type Sharp } from 'sharp';

type Random = () => number;
const between = (random: Random, low: number, high: number) => low + (high - low) * random();

export interface Raw {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
}

async function raw(image: Uint8Array | Sharp): Promise<Raw> {
  const s = image instanceof Uint8Array ? sharp(image) : image;
  const { data, info } = await s
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

const encode = async (r: Raw) =>
  new Uint8Array(
    await sharp(r.data, { raw: { width: r.width, height: r.height, channels: 3 } })
      .png()
      .toBuffer(),
  );

/** marked - original + host: the mark estimated from one output, added to another picture. */
async function addMark(marked: Raw, original: Raw, host: Raw): Promise<Uint8Array> {
  const out = new Uint8Array(host.data.length);
  for (let i = 0; i < out.length; i++) {
    out[i] = Math.max(
      0,
      Math.min(
        255,
        (host.data[i] as number) + (marked.data[i] as number) - (original.data[i] as number),
      ),
    );
  }
  return encode({ ...host, data: out });
}

export interface Transplant {
  readonly kind: 'another photo' | 'second shot';
  readonly description: string;
  readonly image: Uint8Array;
}

/**
 * The mark of `marked` (issued for `original`) on `other` resized to its size, or on a second
 * shot of the same scene: the original reframed a little (shifted, zoomed, re-exposed), as a
 * photographer's next frame.
 */
export async function transplant(
  marked: Uint8Array,
  original: Uint8Array,
  other: Uint8Array | null,
  random: Random,
): Promise<Transplant> {
  const m = await raw(marked);
  const o = await raw(sharp(original).resize(m.width, m.height, { fit: 'fill' }));
  if (other !== null) {
    const host = await raw(sharp(other).resize(m.width, m.height, { fit: 'cover' }));
    return {
      kind: 'another photo',
      description: 'mark added to another photo',
      image: await addMark(m, o, host),
    };
  }
  const zoom = between(random, 1.03, 1.1);
  const w = Math.round(m.width / zoom);
  const h = Math.round(m.height / zoom);
  const left = Math.floor(random() * (m.width - w + 1));
  const top = Math.floor(random() * (m.height - h + 1));
  const exposure = between(random, 0.9, 1.1);
  // One resize per sharp pipeline: each step is materialised before the next.
  const same = await sharp(original).resize(m.width, m.height, { fit: 'fill' }).png().toBuffer();
  const framed = await sharp(same).extract({ left, top, width: w, height: h }).png().toBuffer();
  const host = await raw(
    sharp(framed).resize(m.width, m.height, { fit: 'fill' }).linear(exposure, 0),
  );
  return {
    kind: 'second shot',
    description: `second shot: zoom ${zoom.toFixed(2)}, from ${left},${top}, exposure ${exposure.toFixed(2)}`,
    image: await addMark(m, o, host),
  };
}

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface LocalEdit {
  readonly kind: string;
  readonly description: string;
  readonly image: Uint8Array;
  /** Where the pixels changed visibly (bounding box), null when the edit changed nothing visible. */
  readonly truth: Box | null;
  /** The changed area's share of the picture. */
  readonly share: number;
}

export const EDIT_KINDS = [
  'pasted patch',
  'clone',
  'text',
  'logo',
  'blurred region',
  'recoloured region',
] as const;

/**
 * One local edit of `marked` covering about `share` of it (a rectangle of random aspect), of
 * `kind`. Its truth is measured from the pixels: the box of what visibly changed.
 */
export async function localEdit(
  marked: Uint8Array,
  kind: (typeof EDIT_KINDS)[number],
  share: number,
  other: Uint8Array,
  random: Random,
): Promise<LocalEdit> {
  const m = await raw(marked);
  const aspect = between(random, 0.6, 1.6);
  const w = Math.max(
    8,
    Math.min(m.width, Math.round(Math.sqrt(share * m.width * m.height * aspect))),
  );
  const h = Math.max(8, Math.min(m.height, Math.round((share * m.width * m.height) / w)));
  const left = Math.floor(random() * (m.width - w + 1));
  const top = Math.floor(random() * (m.height - h + 1));
  const region = { left, top, width: w, height: h };
  const base = sharp(m.data, { raw: { width: m.width, height: m.height, channels: 3 } });
  let patch: Buffer;
  switch (kind) {
    case 'pasted patch':
      patch = await sharp(other).resize(w, h, { fit: 'cover' }).removeAlpha().png().toBuffer();
      break;
    case 'clone': {
      const sx = Math.floor(random() * (m.width - w + 1));
      const sy = Math.floor(random() * (m.height - h + 1));
      patch = await sharp(await encode(m))
        .extract({ left: sx, top: sy, width: w, height: h })
        .png()
        .toBuffer();
      break;
    }
    case 'text': {
      const size = Math.max(10, Math.round(h / 2.5));
      const words = ['SALE', 'FAKE', 'Hello', '2026', 'NEWS', 'Paris'][Math.floor(random() * 6)];
      const colour = random() < 0.5 ? '#ffffff' : '#e01010';
      patch = await sharp(await encode(m))
        .extract(region)
        .composite([
          {
            input: Buffer.from(
              `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><text x="50%" y="60%" font-family="DejaVu Sans" font-weight="bold" font-size="${size}" text-anchor="middle" textLength="${w * 0.9}" lengthAdjust="spacingAndGlyphs" fill="${colour}" stroke="#000" stroke-width="${Math.max(1, size / 20)}">${words}</text></svg>`,
            ),
            left: 0,
            top: 0,
          },
        ])
        .png()
        .toBuffer();
      break;
    }
    case 'logo': {
      const r = Math.min(w, h) / 2;
      patch = await sharp(await encode(m))
        .extract(region)
        .composite([
          {
            input: Buffer.from(
              `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><circle cx="${w / 2}" cy="${h / 2}" r="${r * 0.95}" fill="#1a73e8"/><rect x="${w / 2 - r * 0.5}" y="${h / 2 - r * 0.15}" width="${r}" height="${r * 0.3}" fill="#fbbc04"/><circle cx="${w / 2}" cy="${h / 2}" r="${r * 0.35}" fill="none" stroke="#ffffff" stroke-width="${r * 0.1}"/></svg>`,
            ),
            left: 0,
            top: 0,
          },
        ])
        .png()
        .toBuffer();
      break;
    }
    case 'blurred region':
      patch = await sharp(await encode(m))
        .extract(region)
        .blur(Math.max(3, Math.min(w, h) / 12))
        .png()
        .toBuffer();
      break;
    case 'recoloured region':
      patch = await sharp(await encode(m))
        .extract(region)
        .modulate({ hue: Math.round(between(random, 60, 180)), saturation: 1.4 })
        .png()
        .toBuffer();
      break;
  }
  const edited = await raw(base.composite([{ input: patch, left, top }]));
  const truth = changedBox(m, edited);
  const image = await encode(edited);
  return {
    kind,
    description: `${kind} ${w}x${h}+${left}+${top}`,
    image,
    truth: truth.box,
    share: truth.area / (m.width * m.height),
  };
}

/** The box of pixels that visibly changed (a channel by more than 12 levels) and their count. */
function changedBox(before: Raw, after: Raw): { box: Box | null; area: number } {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  let area = 0;
  for (let y = 0; y < before.height; y++) {
    for (let x = 0; x < before.width; x++) {
      const p = (y * before.width + x) * 3;
      let changed = false;
      for (let c = 0; c < 3; c++) {
        if (Math.abs((before.data[p + c] as number) - (after.data[p + c] as number)) > 12)
          changed = true;
      }
      if (!changed) continue;
      area++;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  }
  return {
    box: area === 0 ? null : { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 },
    area,
  };
}

/** Intersection over union of two boxes. */
export function iou(a: Box, b: Box): number {
  const w = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const h = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}
