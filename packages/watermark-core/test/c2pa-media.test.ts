// Every format in MEDIA_TYPES signed and read back with the real c2pa-node, from memory and file
// to file, and signed twice to keep the history.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MEDIA_TYPES, type MediaFormatName, mediaTypeFor } from '@hallmark/schemas';
import { describe, expect, it } from 'vitest';
import {
  C2PA_FORMATS,
  detectC2paFormat,
  type ManifestSummary,
  readCrJson,
  readManifest,
  readManifestFile,
  signManifest,
  signManifestFile,
  UNSPECIFIED_DIGITAL_SOURCE_TYPE,
  UnsupportedFormatError,
} from '../src/c2pa/index.ts';
import { useDevelopmentSigner } from './c2pa-fixtures.ts';
import { MEDIA_SAMPLES, mediaFixture } from './c2pa-media-samples.ts';

const dev = useDevelopmentSigner();

function present(summary: ManifestSummary): Extract<ManifestSummary, { present: true }> {
  if (!summary.present) throw new Error('expected a manifest');
  return summary;
}

const THUMBNAILED = new Set<MediaFormatName>([
  'jpeg',
  'png',
  'webp',
  'avif',
  'heic',
  'heif',
  'gif',
]);
const formats = MEDIA_TYPES.map((type) => [type.format] as const);
const request = {
  title: 'sample',
  fileId: '3f0c2a52-8a51-4c4e-9d7e-0e6f7f4a1b2c',
  softBinding: { algorithm: 'hallmark.test.v1', payloadHex: '00ff' },
};

/** The sample written to the data folder under its canonical extension. */
async function sampleFile(format: MediaFormatName, name = 'input'): Promise<string> {
  const path = join(dev.dataDir, `${format}-${name}.${mediaTypeFor(format).extensions[0]}`);
  await writeFile(path, await MEDIA_SAMPLES[format]());
  return path;
}

describe('every media format', () => {
  it('is a C2PA format, and has a sample here', () => {
    expect([...C2PA_FORMATS].sort()).toEqual(MEDIA_TYPES.map((type) => type.format).sort());
    expect(Object.keys(MEDIA_SAMPLES).sort()).toEqual([...C2PA_FORMATS].sort());
  });

  it.each(formats)('%s: signManifest, then readManifest', async (format) => {
    const input = await MEDIA_SAMPLES[format]();
    expect(detectC2paFormat(input)).toBe(format);

    const signed = await signManifest(input, request, dev.signer);
    expect(signed).toMatchObject({ format, mimeType: mediaTypeFor(format).mimeType });
    expect(signed.parent).toBe('none');
    expect(detectC2paFormat(signed.bytes)).toBe(format);

    const summary = present(
      await readManifest(signed, { trustAnchors: dev.signer.trustAnchorsPem }),
    );
    expect(summary.format).toBe(format);
    expect(summary.manifestLabel).toBe(signed.manifestId);
    expect(summary.validation).toEqual({ state: 'trusted', failures: [] });
    expect(summary.actions.map((action) => action.action)).toEqual([
      'c2pa.created',
      'c2pa.watermarked.bound',
    ]);
    expect(summary.actions[0]?.digitalSourceType).toBe(UNSPECIFIED_DIGITAL_SOURCE_TYPE);
    expect(summary.identifiers.fileId).toBe(request.fileId);
    expect(summary.softBinding).toEqual({ algorithm: 'hallmark.test.v1', payloadHex: '00ff' });
  });

  it.each(formats)('%s: signManifestFile, then readManifestFile', async (format) => {
    const input = await sampleFile(format);
    const output = join(dev.dataDir, `${format}-signed.${mediaTypeFor(format).extensions[0]}`);
    const signed = await signManifestFile(input, output, request, dev.signer);
    expect(signed).toMatchObject({
      path: output,
      format,
      mimeType: mediaTypeFor(format).mimeType,
      parent: 'none',
      signer: dev.signer.identity,
    });

    const summary = present(
      await readManifestFile(output, { trustAnchors: dev.signer.trustAnchorsPem }),
    );
    expect(summary.format).toBe(format);
    expect(summary.manifestLabel).toBe(signed.manifestId);
    expect(summary.validation).toEqual({ state: 'trusted', failures: [] });
    expect(present(await readManifestFile(output, {})).validation.state).toBe('valid_untrusted');
    // The file holds the same store the call returned.
    const fromMemory = present(await readManifest(await readFile(output)));
    expect(fromMemory.manifestLabel).toBe(signed.manifestId);
  });

  it.each(formats)(
    '%s: a file signed twice keeps the first manifest as its parent',
    async (format) => {
      const input = await sampleFile(format, 'twice');
      const first = join(dev.dataDir, `${format}-first`);
      const second = join(dev.dataDir, `${format}-second`);
      const once = await signManifestFile(input, first, { title: 'first' }, dev.signer);
      const twice = await signManifestFile(first, second, { title: 'second' }, dev.signer);
      expect(twice.parent).toBe('manifest');

      const summary = present(
        await readManifestFile(second, { trustAnchors: dev.signer.trustAnchorsPem }),
      );
      expect(summary.validation.state).toBe('trusted');
      expect(summary.actions[0]?.action).toBe('c2pa.opened');
      expect(summary.ingredients).toHaveLength(1);
      expect(summary.ingredients[0]).toMatchObject({
        provenance: 'manifest',
        relationship: 'parentOf',
        manifestLabel: once.manifestId,
        format: mediaTypeFor(format).mimeType,
      });
      // Only raster images get a picture of the parent: none for a video, a sound, SVG, DNG or
      // JPEG XL. (libvips cannot read back a TIFF c2pa-node signed, so a TIFF parent has none.)
      expect(summary.ingredients[0]?.thumbnail !== null).toBe(THUMBNAILED.has(format));

      // The in-memory path keeps the same history.
      const again = await signManifest(await readFile(first), { title: 'again' }, dev.signer);
      expect(again.parent).toBe('manifest');
    },
  );
});

describe('what a file holds, not what it is called', () => {
  it.each([
    ['pdf', Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n', 'latin1')],
    ['jxl-codestream', () => mediaFixture('sample.jxl')],
    ['bmp', Buffer.from('BM\x3a\0\0\0\0\0\0\0\x36\0\0\0', 'latin1')],
    ['riff/CDXA', Buffer.from('RIFF\x04\0\0\0CDXA', 'latin1')],
  ] as const)('a .mp4 holding %s is refused, naming it', async (format, content) => {
    const bytes = typeof content === 'function' ? await content() : content;
    const path = join(dev.dataDir, `not-really-${format.replace('/', '-')}.mp4`);
    await writeFile(path, bytes);
    expect(() => detectC2paFormat(bytes)).toThrow(UnsupportedFormatError);
    expect(() => detectC2paFormat(bytes)).toThrow(expect.objectContaining({ format }));
    await expect(signManifestFile(path, `${path}.out`, {}, dev.signer)).rejects.toMatchObject({
      name: 'UnsupportedFormatError',
      format,
    });
    await expect(readManifestFile(path, {})).rejects.toMatchObject({ format });
  });
});

describe('readCrJson of signed media', () => {
  it.each([['mp4'], ['mov'], ['m4a'], ['dng']] as const)(
    '%s: the store is found in its container',
    async (format) => {
      const signed = await signManifest(await MEDIA_SAMPLES[format](), {}, dev.signer);
      const report = await readCrJson(signed, { trustAnchors: dev.signer.trustAnchorsPem });
      expect(report.manifests.map((manifest) => manifest.label)).toContain(signed.manifestId);
    },
  );
});
