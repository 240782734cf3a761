// The distortions the second generation of the mark must survive: non-uniform
// scaling, perspective, tiny crops, pasting into a larger picture, harsher compression, blur and
// noise, aspect crops for social feeds and the double re-encode of messaging apps. Reported by
// the evaluation apart from the first generation's, whose targets the engine meets today.
import sharp from 'sharp';
import { type Attack, gaussianNoise, png, reencode, size } from './attacks.ts';
import { seededRandom } from './derived-images.ts';

function stretch(xFactor: number, yFactor: number) {
  return async (image: Uint8Array) => {
    const { width, height } = await size(image);
    return png(
      sharp(image).resize(Math.round(width * xFactor), Math.round(height * yFactor), {
        fit: 'fill',
      }),
    );
  };
}

/**
 * A projective warp: each corner moves inwards by a random share (up to `maxShift`) of the side,
 * as a photo of a screen or print taken at an angle; bilinear sampling, black outside.
 */
function perspective(maxShift: number) {
  return async (image: Uint8Array, seed: number) => {
    const { data, info } = await sharp(image)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width: w, height: h, channels } = info;
    const random = seededRandom(seed * 7919 + 17);
    const shift = () => random() * maxShift;
    // Where the source corners land in the output (clockwise from top-left).
    const target: [number, number][] = [
      [shift() * w, shift() * h],
      [w - 1 - shift() * w, shift() * h],
      [w - 1 - shift() * w, h - 1 - shift() * h],
      [shift() * w, h - 1 - shift() * h],
    ];
    const source: [number, number][] = [
      [0, 0],
      [w - 1, 0],
      [w - 1, h - 1],
      [0, h - 1],
    ];
    // The homography from output to source: each output pixel samples the source.
    const [m0, m1, m2, m3, m4, m5, m6, m7] = homography(target, source) as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const out = Buffer.alloc(w * h * channels);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const d = m6 * x + m7 * y + 1;
        const sx = (m0 * x + m1 * y + m2) / d;
        const sy = (m3 * x + m4 * y + m5) / d;
        if (sx < 0 || sy < 0 || sx > w - 1 || sy > h - 1) continue;
        const x0 = Math.floor(sx);
        const y0 = Math.floor(sy);
        const x1 = Math.min(x0 + 1, w - 1);
        const y1 = Math.min(y0 + 1, h - 1);
        const fx = sx - x0;
        const fy = sy - y0;
        for (let c = 0; c < channels; c++) {
          const at = (px: number, py: number) => data[(py * w + px) * channels + c] as number;
          const top = at(x0, y0) * (1 - fx) + at(x1, y0) * fx;
          const bottom = at(x0, y1) * (1 - fx) + at(x1, y1) * fx;
          out[(y * w + x) * channels + c] = Math.round(top * (1 - fy) + bottom * fy);
        }
      }
    }
    return png(sharp(out, { raw: { width: w, height: h, channels } }));
  };
}

/** The 8 coefficients mapping four points `from` onto `to` (a 3x3 matrix with m[8] = 1). */
function homography(from: [number, number][], to: [number, number][]): number[] {
  const rows: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i] as [number, number];
    const [u, v] = to[i] as [number, number];
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  // Gaussian elimination with partial pivoting on the 8x9 augmented system.
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let r = col + 1; r < 8; r++) {
      if (
        Math.abs((rows[r] as number[])[col] as number) >
        Math.abs((rows[pivot] as number[])[col] as number)
      )
        pivot = r;
    }
    [rows[col], rows[pivot]] = [rows[pivot] as number[], rows[col] as number[]];
    const p = rows[col] as number[];
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const row = rows[r] as number[];
      const factor = (row[col] as number) / (p[col] as number);
      for (let k = col; k < 9; k++) row[k] = (row[k] as number) - factor * (p[k] as number);
    }
  }
  return rows.map((row, i) => (row[8] as number) / (row[i] as number));
}

/** Keeps `area` of the image (same aspect), centred or at a seeded place away from the centre. */
function smallCrop(area: number, where: 'centre' | 'off-centre') {
  return async (image: Uint8Array, seed: number) => {
    const { width, height } = await size(image);
    const w = Math.max(16, Math.round(width * Math.sqrt(area)));
    const h = Math.max(16, Math.round(height * Math.sqrt(area)));
    const random = seededRandom(seed * 31 + 7);
    const left =
      where === 'centre' ? Math.floor((width - w) / 2) : Math.floor(random() * (width - w));
    const top =
      where === 'centre' ? Math.floor((height - h) / 2) : Math.floor(random() * (height - h));
    return png(sharp(image).extract({ left, top, width: w, height: h }));
  };
}

/**
 * The image pasted at a seeded place into a larger picture it fills `share` of, the rest an
 * unmarked texture (gradients and noise), as in a collage or a slide.
 */
function pasted(share: number) {
  return async (image: Uint8Array, seed: number) => {
    const { width, height } = await size(image);
    const canvasWidth = Math.round(width / Math.sqrt(share));
    const canvasHeight = Math.round(height / Math.sqrt(share));
    const random = seededRandom(seed * 131 + 3);
    const texture = Buffer.alloc(canvasWidth * canvasHeight * 3);
    const [r0, g0, b0] = [random() * 255, random() * 255, random() * 255];
    for (let y = 0; y < canvasHeight; y++) {
      for (let x = 0; x < canvasWidth; x++) {
        const i = (y * canvasWidth + x) * 3;
        const wave = 40 * Math.sin(x / 37 + y / 53);
        texture[i] = Math.max(0, Math.min(255, r0 + wave + (random() - 0.5) * 30));
        texture[i + 1] = Math.max(0, Math.min(255, g0 - wave + (random() - 0.5) * 30));
        texture[i + 2] = Math.max(0, Math.min(255, b0 + (y / canvasHeight) * 60 - 30));
      }
    }
    return png(
      sharp(texture, { raw: { width: canvasWidth, height: canvasHeight, channels: 3 } }).composite([
        {
          input: Buffer.from(image),
          left: Math.floor(random() * (canvasWidth - width)),
          top: Math.floor(random() * (canvasHeight - height)),
        },
      ]),
    );
  };
}

/** A feed's crop to `aspect` (width / height) around the centre, long side 1080, JPEG q85. */
function aspectCrop(aspect: number) {
  return async (image: Uint8Array) => {
    const { width, height } = await size(image);
    const w = Math.min(width, Math.round(height * aspect));
    const h = Math.min(height, Math.round(width / aspect));
    return new Uint8Array(
      await sharp(image)
        .extract({
          left: Math.floor((width - w) / 2),
          top: Math.floor((height - h) / 2),
          width: w,
          height: h,
        })
        .resize(1080, 1080, { fit: 'inside' })
        .jpeg({ quality: 85 })
        .toBuffer(),
    );
  };
}

/** Turned by `degrees` on a canvas large enough to keep every corner (black around it), as PNG. */
function rotateUncropped(degrees: number) {
  return (image: Uint8Array) => png(sharp(image).rotate(degrees, { background: '#000' }));
}

// The second generation's targets: the tiers of 95, 85 and 60 %.
export const secondGenerationAttacks: readonly Attack[] = [
  { name: 'rotate 10deg, uncropped', target: 95, apply: rotateUncropped(10) },
  { name: 'stretch width 1.25x', target: 85, apply: stretch(1.25, 1) },
  { name: 'stretch height 1.25x', target: 85, apply: stretch(1, 1.25) },
  { name: 'squeeze width 0.8x', target: 85, apply: stretch(0.8, 1) },
  { name: 'squeeze height 0.8x', target: 85, apply: stretch(1, 0.8) },
  { name: 'perspective 10%', target: 85, apply: perspective(0.1) },
  { name: 'perspective 20%', target: 60, apply: perspective(0.2) },
  { name: 'centre crop 25%', target: 85, apply: smallCrop(0.25, 'centre') },
  { name: 'off-centre crop 25%', target: 85, apply: smallCrop(0.25, 'off-centre') },
  { name: 'centre crop 10%', target: 60, apply: smallCrop(0.1, 'centre') },
  { name: 'off-centre crop 10%', target: 60, apply: smallCrop(0.1, 'off-centre') },
  { name: 'pasted at 50% of a canvas', target: 85, apply: pasted(0.5) },
  { name: 'pasted at 25% of a canvas', target: 60, apply: pasted(0.25) },
  { name: 'JPEG q20', target: 85, apply: reencode('jpeg', 20) },
  { name: 'JPEG q10', target: 60, apply: reencode('jpeg', 10) },
  { name: 'Gaussian blur sigma 2', target: 85, apply: async (image) => png(sharp(image).blur(2)) },
  {
    name: 'Gaussian noise sigma 10',
    target: 85,
    apply: (image, seed) => gaussianNoise(image, seed, 10),
  },
  { name: 'feed crop 1:1, 1080, JPEG q85', target: 95, apply: aspectCrop(1) },
  { name: 'feed crop 4:5, 1080, JPEG q85', target: 95, apply: aspectCrop(4 / 5) },
  {
    name: 'messaging: JPEG q70 then q85',
    target: 95,
    apply: async (image) => reencode('jpeg', 85)(await reencode('jpeg', 70)(image)),
  },
];
