// Random edits of unmarked photos for the false-detection check: crops, resizes and re-encodes,
// alone and combined, each described in words for the report.
import sharp, { type Sharp } from 'sharp';

export interface DerivedImage {
  readonly description: string;
  readonly image: Uint8Array;
}

/** A small deterministic generator, so that a run can be repeated from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/** One random derivative of `photo` (decoded once by the caller into `raw`). */
export async function deriveImage(
  raw: { data: Uint8Array; width: number; height: number; channels: 3 | 4 },
  random: () => number,
): Promise<DerivedImage> {
  const steps: string[] = [];
  let pipeline: Sharp = sharp(raw.data, {
    raw: { width: raw.width, height: raw.height, channels: raw.channels },
  });
  let { width, height } = raw;
  const kind = random();
  if (kind < 0.4 || kind >= 0.8) {
    const area = 0.2 + 0.75 * random();
    const aspect = 0.7 + 0.6 * random();
    const w = Math.max(160, Math.min(width, Math.round(width * Math.sqrt(area * aspect))));
    const h = Math.max(160, Math.min(height, Math.round(height * Math.sqrt(area / aspect))));
    const left = Math.floor(random() * (width - w + 1));
    const top = Math.floor(random() * (height - h + 1));
    pipeline = sharp(
      await pipeline
        .extract({ left, top, width: w, height: h })
        .png({ compressionLevel: 0 })
        .toBuffer(),
    );
    steps.push(`crop ${w}x${h}+${left}+${top}`);
    width = w;
    height = h;
  }
  if (kind >= 0.4) {
    const factor = Math.max(0.15, Math.min(1.6, 0.25 + 1.25 * random()));
    const w = Math.max(160, Math.round(width * factor));
    const h = Math.max(160, Math.round(height * factor));
    pipeline = pipeline.resize(w, h, { fit: 'fill' });
    steps.push(`resize to ${w}x${h}`);
  }
  const encoding = random();
  let image: Buffer;
  if (encoding < 0.6) {
    const quality = Math.round(20 + 75 * random());
    image = await pipeline.jpeg({ quality }).toBuffer();
    steps.push(`JPEG q${quality}`);
  } else if (encoding < 0.85) {
    const quality = Math.round(40 + 55 * random());
    image = await pipeline.webp({ quality }).toBuffer();
    steps.push(`WebP q${quality}`);
  } else {
    image = await pipeline.png().toBuffer();
    steps.push('PNG');
  }
  return { description: steps.join(', '), image: new Uint8Array(image) };
}
