import { describe, expect, it } from 'vitest';
import { CODED_BITS, encodeFrame } from '../src/code/frame-code.ts';
import { MIN_CHIP_PIXELS, markGrid } from '../src/code/mark-geometry.ts';
import { markLayout, TILE, tilePattern } from '../src/code/mark-layout.ts';
import { Prng } from '../src/code/prng.ts';
import { addMarkField, TEN_BIT } from '../src/embed/mark-field.ts';
import { evenInverseFft2d, fft2d, realFft2d } from '../src/image/fft.ts';
import { psnr, ssim } from '../src/image/quality-metrics.ts';

describe('signal building blocks', () => {
  it('chips are exactly 4.4 pixels on a small image, and span a large one exactly', () => {
    // 451 / 4.4 = 102.5 chips: the last column is cut by the edge, none is stretched.
    expect(markGrid(451, 300)).toEqual({
      columns: 103,
      rows: 69,
      chipWidth: MIN_CHIP_PIXELS,
      chipHeight: MIN_CHIP_PIXELS,
    });
    const large = markGrid(4272, 2848);
    expect(large.columns * large.chipWidth).toBeCloseTo(4272, 9);
    expect(large.rows * large.chipHeight).toBeCloseTo(2848, 9);
    expect(large.chipWidth).toBeGreaterThan(13);
  });

  it('2D FFT matches a direct DFT and inverts', () => {
    const width = 8;
    const height = 4;
    const prng = new Prng('fft');
    const re = Float64Array.from({ length: width * height }, () => prng.nextInt(1000) / 100);
    const im = Float64Array.from({ length: width * height }, () => prng.nextInt(1000) / 100);
    const re0 = re.slice();
    const im0 = im.slice();
    fft2d(re, im, width, height);
    for (let v = 0; v < height; v++) {
      for (let u = 0; u < width; u++) {
        let sr = 0;
        let si = 0;
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < width; x++) {
            const a = -2 * Math.PI * ((u * x) / width + (v * y) / height);
            const i = y * width + x;
            sr += (re0[i] as number) * Math.cos(a) - (im0[i] as number) * Math.sin(a);
            si += (re0[i] as number) * Math.sin(a) + (im0[i] as number) * Math.cos(a);
          }
        }
        expect(re[v * width + u]).toBeCloseTo(sr, 9);
        expect(im[v * width + u]).toBeCloseTo(si, 9);
      }
    }
    fft2d(re, im, width, height, true);
    re.forEach((value, i) => {
      expect(value / (width * height)).toBeCloseTo(re0[i] as number, 9);
    });
  });

  it('the real-input and symmetric-inverse 2D FFTs equal the complex one', () => {
    const width = 16;
    const height = 8;
    const prng = new Prng('real fft');
    // Real data with zero rows above 2 and from 7 (a window padded into the transform).
    const data = Float64Array.from({ length: width * height }, (_, i) => {
      const row = Math.floor(i / width);
      return row >= 2 && row < 7 ? prng.nextInt(1000) / 100 - 5 : 0;
    });
    const re = data.slice();
    const im = new Float64Array(width * height).fill(3); // overwritten, not read
    realFft2d(re, im, width, height, 2, 7);
    const expectRe = data.slice();
    const expectIm = new Float64Array(width * height);
    fft2d(expectRe, expectIm, width, height);
    expect(largestDifference(re, expectRe)).toBeLessThan(1e-9);
    expect(largestDifference(im, expectIm)).toBeLessThan(1e-9);
    // Its power spectrum is symmetric about the origin; with a second such spectrum as the
    // imaginary part, the symmetric inverse gives both (real) transforms.
    const power = re.map((r, i) => r * r + (im[i] as number) ** 2);
    const other = power.map(Math.sqrt);
    const inRe = power.slice();
    const inIm = other.slice();
    evenInverseFft2d(inRe, inIm, width, height);
    const fullRe = power.slice();
    const fullIm = other.slice();
    fft2d(fullRe, fullIm, width, height, true);
    expect(largestDifference(inRe, fullRe)).toBeLessThan(1e-6);
    expect(largestDifference(inIm, fullIm)).toBeLessThan(1e-6);
  });

  it('the seeded generator repeats its sequence', () => {
    const a = new Prng('seed');
    const b = new Prng('seed');
    const c = new Prng('other');
    const first = Array.from({ length: 5 }, () => a.nextUint32());
    expect(Array.from({ length: 5 }, () => b.nextUint32())).toEqual(first);
    expect(Array.from({ length: 5 }, () => c.nextUint32())).not.toEqual(first);
  });

  it('the tile layout has one pilot per 2x2 block and one coded bit on every other chip', () => {
    const pilots = markLayout.pilot.filter((p) => p !== 0).length;
    expect(pilots).toBe((TILE * TILE) / 4);
    const chipsPerBit = new Array<number>(CODED_BITS).fill(0);
    for (const k of markLayout.slot) if (k >= 0) chipsPerBit[k] = (chipsPerBit[k] as number) + 1;
    expect(chipsPerBit.every((chips) => chips === 1)).toBe(true);
    const pattern = tilePattern(encodeFrame(42n));
    expect(pattern.every((v) => v === 1 || v === -1)).toBe(true);
  });

  it('PSNR and SSIM are perfect for identical images and drop with noise', () => {
    const prng = new Prng('image');
    const width = 64;
    const height = 48;
    // A smooth gradient: noise of a few levels is a large structural change there.
    const data = Uint8Array.from({ length: width * height * 3 }, (_, i) => {
      const pixel = Math.floor(i / 3);
      return 80 + (pixel % width) + Math.floor(pixel / width);
    });
    const image = { data, width, height, channels: 3 };
    expect(psnr(image, image)).toBe(Infinity);
    expect(ssim(image, image)).toBeCloseTo(1, 9);
    const noisy = { ...image, data: data.map((v) => v + prng.nextInt(11)) };
    expect(psnr(image, noisy)).toBeLessThan(35);
    expect(ssim(image, noisy)).toBeLessThan(0.96);
  });
});

describe('adding the mark field', () => {
  it('the SIMD loop and the JavaScript loop give the same pixels and leave alpha alone', () => {
    const prng = new Prng('field');
    const grid = { columns: 37, rows: 23, chipWidth: 301 / 37, chipHeight: 97 / 23 };
    const field = Float32Array.from({ length: 37 * 23 }, () => prng.nextInt(1700) / 100 - 8.5);
    for (const [channels, hasAlpha] of [
      [1, false],
      [2, true],
      [3, false],
      [4, true],
    ] as const) {
      const width = 301;
      const height = 97;
      const data = Uint8Array.from({ length: width * height * channels }, () => prng.nextInt(256));
      const simd = { data: data.slice(), width, height, channels, hasAlpha };
      const plain = { data: data.slice(), width, height, channels, hasAlpha };
      addMarkField(simd, grid, field);
      addMarkField(plain, grid, field, { allowSimd: false });
      let differences = 0;
      simd.data.forEach((v, i) => {
        // Only an exact .5 may round differently (to even in SIMD, upwards in JavaScript).
        if (Math.abs(v - (plain.data[i] as number)) > 1) differences += 100;
        else if (v !== plain.data[i]) differences++;
      });
      expect(differences).toBeLessThan(width * height * 0.001);
      if (hasAlpha) {
        for (let p = channels - 1; p < data.length; p += channels) {
          expect(simd.data[p]).toBe(data[p]);
        }
      }
      expect(simd.data).not.toEqual(data);
    }
  });

  it('16-bit samples change by the field scaled by 257', () => {
    const grid = { columns: 4, rows: 4, chipWidth: 16, chipHeight: 16 };
    const field = new Float32Array(16).fill(2);
    const data = new Uint16Array(64 * 64 * 3).fill(30000);
    addMarkField({ data, width: 64, height: 64, channels: 3, hasAlpha: false }, grid, field);
    expect(new Set(data)).toEqual(new Set([30000 + 514]));
  });

  it("video's 10-bit samples change by the field times 4 and stay within 0-1023", () => {
    const grid = { columns: 4, rows: 4, chipWidth: 16, chipHeight: 16 };
    const plane = (value: number) => new Uint16Array(64 * 64).fill(value);
    const add = (data: Uint16Array, level: number) => {
      const field = new Float32Array(16).fill(level);
      const pixels = { data, width: 64, height: 64, channels: 1, hasAlpha: false };
      addMarkField(pixels, grid, field, { wide: TEN_BIT });
      return new Set(data);
    };
    expect(add(plane(500), 2)).toEqual(new Set([508]));
    expect(add(plane(1020), 2)).toEqual(new Set([1023]));
    expect(add(plane(3), -2)).toEqual(new Set([0]));
  });
});

function largestDifference(a: Float64Array, b: Float64Array): number {
  return a.reduce((worst, value, i) => Math.max(worst, Math.abs(value - (b[i] as number))), 0);
}
