import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { estimateJpegQuality } from '../src/image/jpeg-quality.ts';
import { detectMark, embedMark } from '../src/invisible.ts';

const photo = readFileSync(join(import.meta.dirname, '../../../fixtures/photos/fig-0.25mp.jpg'));
const payload = 0x1122_3344_5566_7788n;
const xmp =
  '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">' +
  '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about=""/>' +
  '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>';

async function rawOf(image: Uint8Array | Buffer, depth: 'uchar' | 'ushort' = 'uchar') {
  const meta = await sharp(image).metadata();
  const space =
    meta.space === 'b-w' || meta.space === 'grey16'
      ? depth === 'ushort'
        ? 'grey16'
        : 'b-w'
      : depth === 'ushort'
        ? 'rgb16'
        : 'srgb';
  return sharp(image)
    .keepIccProfile()
    .toColourspace(space)
    .raw({ depth })
    .toBuffer({ resolveWithObject: true });
}

/** Marks `input`, checks the payload comes back, and returns the output and both headers. */
async function markAndCheck(input: Buffer) {
  const marked = await embedMark(new Uint8Array(input), payload);
  const detection = await detectMark(marked.image);
  expect(detection).toMatchObject({ found: true, payload });
  return {
    marked,
    before: await sharp(input).metadata(),
    after: await sharp(marked.image).metadata(),
  };
}

function alphaOf(data: Buffer, channels: number, bytesPerSample = 1): number[] {
  const alpha: number[] = [];
  const step = channels * bytesPerSample;
  for (let p = (channels - 1) * bytesPerSample; p < data.length; p += step) {
    alpha.push(bytesPerSample === 2 ? data.readUInt16LE(p) : (data[p] as number));
  }
  return alpha;
}

describe('embedMark keeps the file what it was', () => {
  it('JPEG: quality, chroma subsampling, EXIF orientation, ICC profile and XMP are kept', async () => {
    const input = await sharp(photo)
      .withIccProfile('p3')
      .withMetadata({ orientation: 6 })
      .withXmp(xmp)
      .jpeg({ quality: 83, chromaSubsampling: '4:4:4' })
      .toBuffer();
    const { marked, before, after } = await markAndCheck(input);
    expect(marked.format).toBe('jpeg');
    expect(after).toMatchObject({
      format: 'jpeg',
      width: before.width,
      height: before.height,
      orientation: 6,
      chromaSubsampling: '4:4:4',
    });
    expect(Buffer.compare(after.icc as Buffer, before.icc as Buffer)).toBe(0);
    expect(after.xmpAsString).toBe(before.xmpAsString);
    expect(estimateJpegQuality(marked.image)).toBe(83);
  });

  it('JPEG: an explicit quality wins over the estimate', async () => {
    const marked = await embedMark(new Uint8Array(photo), payload, { quality: 70 });
    expect(estimateJpegQuality(marked.image)).toBe(70);
  });

  it('grey JPEG stays single-channel', async () => {
    const input = await sharp(photo).toColourspace('b-w').jpeg({ quality: 90 }).toBuffer();
    const { after } = await markAndCheck(input);
    expect(after).toMatchObject({ format: 'jpeg', channels: 1 });
  });

  it('PNG with alpha: the alpha channel is untouched and the ICC profile kept', async () => {
    const { data, info } = await sharp(photo)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    for (let p = 3; p < data.length; p += 4)
      data[p] = (p >> 2) % info.width < 40 ? 0 : (p >> 4) & 0xff;
    const input = await sharp(data, {
      raw: { width: info.width, height: info.height, channels: 4 },
    })
      .withIccProfile('p3')
      .png()
      .toBuffer();
    const { marked, after, before } = await markAndCheck(input);
    expect(after).toMatchObject({ format: 'png', channels: 4, hasAlpha: true, width: info.width });
    expect(Buffer.compare(after.icc as Buffer, before.icc as Buffer)).toBe(0);
    const out = await rawOf(marked.image);
    expect(alphaOf(out.data, 4)).toEqual(alphaOf((await rawOf(input)).data, 4));
  });

  it('16-bit PNG stays 16-bit, and the change is the mark scaled to 16 bits', async () => {
    const input = await sharp(photo).toColourspace('rgb16').png().toBuffer();
    const { marked, after } = await markAndCheck(input);
    expect(after).toMatchObject({ format: 'png', depth: 'ushort', bitsPerSample: 16 });
    const a = await rawOf(input, 'ushort');
    const b = await rawOf(marked.image, 'ushort');
    let sumSq = 0;
    for (let i = 0; i < a.data.length; i += 2)
      sumSq += (a.data.readUInt16LE(i) - b.data.readUInt16LE(i)) ** 2;
    const rms8 = Math.sqrt(sumSq / (a.data.length / 2)) / 257;
    expect(rms8).toBeGreaterThan(0.5);
    expect(rms8).toBeLessThan(3.5);
  });

  it('grey PNG with alpha keeps both channels and the alpha', async () => {
    const grey = await sharp(photo)
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const ga = Buffer.alloc(grey.info.width * grey.info.height * 2);
    for (let i = 0; i < grey.info.width * grey.info.height; i++) {
      ga[2 * i] = grey.data[i * grey.info.channels] as number;
      ga[2 * i + 1] = 255 - (i % 200);
    }
    const input = await sharp(ga, {
      raw: { width: grey.info.width, height: grey.info.height, channels: 2 },
    })
      .toColourspace('b-w')
      .png()
      .toBuffer();
    const { marked, after } = await markAndCheck(input);
    expect(after).toMatchObject({ format: 'png', channels: 2, hasAlpha: true });
    const { data, info } = await sharp(marked.image).raw().toBuffer({ resolveWithObject: true });
    const alphaAfter = alphaOf(data, info.channels);
    expect(alphaAfter.slice(0, 400)).toEqual(
      Array.from({ length: 400 }, (_, i) => 255 - (i % 200)),
    );
  });

  it('lossless WebP with alpha stays lossless, with its alpha and ICC profile', async () => {
    const input = await sharp(photo)
      .ensureAlpha(0.6)
      .withIccProfile('p3')
      .webp({ lossless: true })
      .toBuffer();
    const { marked, after, before } = await markAndCheck(input);
    expect(after).toMatchObject({ format: 'webp', hasAlpha: true });
    expect(Buffer.from(marked.image).includes('VP8L')).toBe(true);
    expect(Buffer.compare(after.icc as Buffer, before.icc as Buffer)).toBe(0);
    const out = await rawOf(marked.image);
    expect(new Set(alphaOf(out.data, 4))).toEqual(new Set([153]));
  });

  it('lossy WebP stays lossy and keeps EXIF orientation', async () => {
    const input = await sharp(photo)
      .withMetadata({ orientation: 3 })
      .webp({ quality: 90 })
      .toBuffer();
    const { marked, after } = await markAndCheck(input);
    expect(after).toMatchObject({ format: 'webp', orientation: 3 });
    expect(Buffer.from(marked.image).includes('VP8L')).toBe(false);
  });

  it('16-bit TIFF stays 16-bit TIFF with its ICC profile', async () => {
    const input = await sharp(photo)
      .withIccProfile('p3')
      .toColourspace('rgb16')
      .tiff({ compression: 'lzw' })
      .toBuffer();
    const { after, before } = await markAndCheck(input);
    expect(after).toMatchObject({ format: 'tiff', depth: 'ushort', width: before.width });
    expect(Buffer.compare(after.icc as Buffer, before.icc as Buffer)).toBe(0);
  });

  it('AVIF stays AVIF', async () => {
    const input = await sharp(photo).avif({ quality: 80, effort: 0 }).toBuffer();
    const { marked, after } = await markAndCheck(input);
    expect(marked.format).toBe('avif');
    expect(after).toMatchObject({ format: 'heif', compression: 'av1', width: 608, height: 411 });
  });

  it('writes another format when asked', async () => {
    const input = await sharp(photo).png().toBuffer();
    const marked = await embedMark(new Uint8Array(input), payload, { format: 'jpeg', quality: 90 });
    expect(marked.format).toBe('jpeg');
    expect((await sharp(marked.image).metadata()).format).toBe('jpeg');
    expect(await detectMark(marked.image)).toMatchObject({ found: true, payload });
  });
});

describe('JPEG quality estimate', () => {
  it('reads back the quality libjpeg was given', async () => {
    for (const quality of [25, 50, 75, 92, 100]) {
      const jpeg = await sharp(photo).jpeg({ quality }).toBuffer();
      expect(estimateJpegQuality(new Uint8Array(jpeg))).toBe(quality);
    }
    expect(estimateJpegQuality(new Uint8Array([1, 2, 3]))).toBeUndefined();
  });
});
