import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  type C2paFormat,
  DEVELOPMENT_SIGNER_COMMON_NAME,
  detectC2paFormat,
  InvalidManifestRequestError,
  type ManifestRequest,
  type ManifestSummary,
  readManifest,
  signManifest,
  UNSPECIFIED_DIGITAL_SOURCE_TYPE,
  UnreadableImageError,
  UnsupportedFormatError,
} from '../src/c2pa/index.ts';
import { SOFTWARE_AGENT } from '../src/c2pa/software-agent.ts';
import { c2paFixture, exiftoolJumbfLabels, photo, useDevelopmentSigner } from './c2pa-fixtures.ts';

const agent = `Hallmark ${SOFTWARE_AGENT.version}`;

const fullRequest = {
  title: 'harbour.jpg',
  fileId: '3f0c2a52-8a51-4c4e-9d7e-0e6f7f4a1b2c',
  requestId: '8e2c9d4e-7b1a-4f7e-9a55-2f9f3f1d0c11',
  data: {
    author: 'Ada Lovelace',
    creationDate: '2025-01-15',
    description: 'Sunset over the harbour',
    copyright: '© 2025 Ada Lovelace',
    licenseType: 'CC-BY-4.0',
  },
  softBinding: { algorithm: 'hallmark.invisible.v1', payloadHex: '0123456789ABCDEF' },
} satisfies ManifestRequest;

const realPhotos: [C2paFormat, string, () => Promise<Buffer>][] = [
  ['jpeg', 'jpg', () => photo('fog-pier-1.5mp.jpg')],
  ['png', 'png', () => c2paFixture('sample1.png')],
  ['webp', 'webp', () => c2paFixture('sample1.webp')],
];

const dev = useDevelopmentSigner();

function present(summary: ManifestSummary): Extract<ManifestSummary, { present: true }> {
  if (!summary.present) throw new Error('expected a manifest');
  return summary;
}

describe('signManifest and readManifest on real photos', () => {
  it.each(realPhotos)(
    '%s: trusted with the development root, untrusted without it, seen by exiftool',
    async (format, extension, load) => {
      const signed = await signManifest(await load(), fullRequest, dev.signer);
      expect(signed.format).toBe(format);
      expect(detectC2paFormat(signed.bytes)).toBe(format);

      const trusted = present(
        await readManifest(signed, { trustAnchors: dev.signer.trustAnchorsPem }),
      );
      expect(trusted.validation).toEqual({ state: 'trusted', failures: [] });

      const untrusted = present(await readManifest(signed.bytes));
      expect(untrusted.validation.state).toBe('valid_untrusted');
      expect(untrusted.validation.failures.map((failure) => failure.code)).toEqual([
        'signingCredential.untrusted',
      ]);

      const path = join(dev.dataDir, `signed.${extension}`);
      await writeFile(path, signed.bytes);
      const labels = await exiftoolJumbfLabels(path);
      expect(labels[0]).toBe('c2pa'); // the manifest store superbox
      expect(labels).toContain(trusted.manifestLabel);
      expect(labels).toContain('c2pa.signature');
    },
  );

  it('records the actions, CreativeWork, Hallmark assertion and soft binding of the request', async () => {
    const signed = await signManifest(await photo('fog-pier-1.5mp.jpg'), fullRequest, dev.signer);
    const summary = present(
      await readManifest(signed, { trustAnchors: dev.signer.trustAnchorsPem }),
    );

    expect(summary.title).toBe('harbour.jpg');
    expect(summary.claimGenerator).toBe(agent);
    expect(summary.actions).toEqual([
      {
        action: 'c2pa.created',
        softwareAgent: agent,
        when: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        digitalSourceType: UNSPECIFIED_DIGITAL_SOURCE_TYPE,
      },
      {
        action: 'c2pa.watermarked.bound',
        softwareAgent: agent,
        when: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        digitalSourceType: null,
      },
    ]);
    expect(summary.metadata).toEqual(fullRequest.data);
    expect(summary.identifiers).toEqual({
      fileId: fullRequest.fileId,
      requestId: fullRequest.requestId,
    });
    expect(summary.softBinding).toEqual({
      algorithm: 'hallmark.invisible.v1',
      payloadHex: '0123456789abcdef',
    });
    expect(summary.signer).toMatchObject({
      subject: DEVELOPMENT_SIGNER_COMMON_NAME,
      algorithm: 'es256',
      signingTime: null, // no timestamp authority configured
      isDevelopmentIdentity: true,
    });
    expect(summary.ingredients).toEqual([]);
  });

  it('adds neither c2pa.watermarked.bound nor a soft binding when no invisible mark was applied', async () => {
    const signed = await signManifest(await c2paFixture('sample1.webp'), {}, dev.signer);
    const summary = present(await readManifest(signed));
    expect(summary.actions.map((action) => action.action)).toEqual(['c2pa.created']);
    expect(summary.softBinding).toBeNull();
    expect(summary.metadata).toEqual({});
    expect(summary.identifiers).toEqual({ fileId: null, requestId: null });
  });

  it('declares the digital source type a client gives for a file without provenance', async () => {
    const digitalCapture = 'http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture';
    const signed = await signManifest(
      await photo('clock-1mp.jpg'),
      { digitalSourceType: digitalCapture },
      dev.signer,
    );
    const summary = present(await readManifest(signed));
    expect(summary.actions[0]).toMatchObject({
      action: 'c2pa.created',
      digitalSourceType: digitalCapture,
    });
  });

  it.each(realPhotos)(
    '%s: one changed byte of image data after signing reads back invalid with a data-hash mismatch',
    async (format, _extension, load) => {
      const signed = await signManifest(await load(), fullRequest, dev.signer);
      const tampered = Buffer.from(signed.bytes);
      const at = imageDataOffset(tampered, format);
      tampered[at] = (tampered[at] ?? 0) ^ 0x01;

      const summary = present(
        await readManifest(tampered, { trustAnchors: dev.signer.trustAnchorsPem }),
      );
      expect(summary.validation.state).toBe('invalid');
      expect(summary.validation.failures.map((failure) => failure.code)).toContain(
        'assertion.dataHash.mismatch',
      );
    },
  );

  it('a re-encode after signing drops the manifest, which is why signing comes last', async () => {
    const signed = await signManifest(await photo('clock-1mp.jpg'), fullRequest, dev.signer);
    const reencoded = await sharp(signed.bytes).jpeg({ quality: 90 }).toBuffer();
    expect(await readManifest(reencoded)).toEqual({ present: false, format: 'jpeg' });
  });
});

describe('formats beyond JPEG, PNG and WebP', () => {
  it.each([
    ['avif', (image: Sharp) => image.avif()],
    ['tiff', (image: Sharp) => image.tiff()],
    ['gif', (image: Sharp) => image.gif()],
  ] as const)('signs and validates %s', async (format, encode) => {
    const input = await encode(sharp(await photo('fig-0.25mp.jpg'))).toBuffer();
    const signed = await signManifest(input, fullRequest, dev.signer);
    expect(signed.format).toBe(format);
    const summary = present(
      await readManifest(signed, { trustAnchors: dev.signer.trustAnchorsPem }),
    );
    expect(summary.validation.state).toBe('trusted');
    expect(summary.softBinding?.payloadHex).toBe('0123456789abcdef');
  });

  it('signs a HEIF container branded heic', async () => {
    // No HEVC encoder ships with sharp, so a real HEIC cannot be made here. c2pa-node treats
    // every HEIF brand through the same ISO BMFF code, so an AVIF-coded HEIF container branded
    // `heic` exercises the path a camera's HEIC takes.
    const heic = await sharp(await photo('fig-0.25mp.jpg'))
      .avif()
      .toBuffer();
    heic.write('heic', 8, 'latin1'); // ftyp major brand
    expect(detectC2paFormat(heic)).toBe('heic');
    const signed = await signManifest(heic, {}, dev.signer);
    expect(signed.mimeType).toBe('image/heic');
    const summary = present(
      await readManifest(signed, { trustAnchors: dev.signer.trustAnchorsPem }),
    );
    expect(summary.validation.state).toBe('trusted');
  });

  it.each([
    ['bmp', Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)])],
    ['pdf', Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj')],
    ['psd', Buffer.from('8BPS\0\x01', 'latin1')],
    ['unknown', Buffer.from('plain text, not an image')],
  ])('refuses %s with a typed error naming the format', async (format, bytes) => {
    const error = await signManifest(bytes, {}, dev.signer).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnsupportedFormatError);
    expect(error).toMatchObject({ code: 'unsupported_format', format });
    await expect(readManifest(bytes)).rejects.toBeInstanceOf(UnsupportedFormatError);
  });

  it('reports a truncated image as invalid_image', async () => {
    const truncated = (await photo('fig-0.25mp.jpg')).subarray(0, 300);
    await expect(signManifest(truncated, {}, dev.signer)).rejects.toMatchObject({
      name: 'UnreadableImageError',
      code: 'invalid_image',
    });
    await expect(readManifest(truncated)).rejects.toBeInstanceOf(UnreadableImageError);
  });
});

describe('the request contract', () => {
  it.each([
    ['an unknown key in data', { data: { author: 'Ada', camera: 'X100' } }, 'data'],
    ['an unknown top-level key', { fileId: 'f', colour: 'blue' }, '(request)'],
    ['an impossible creation date', { data: { creationDate: '2025-02-30' } }, 'data.creationDate'],
    [
      'an odd-length payload',
      { softBinding: { algorithm: 'a', payloadHex: 'abc' } },
      'softBinding.payloadHex',
    ],
    ['an empty author', { data: { author: '' } }, 'data.author'],
  ])('refuses %s, naming where', async (_case, request, path) => {
    const input = await photo('fig-0.25mp.jpg');
    const error = await signManifest(input, request as ManifestRequest, dev.signer).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InvalidManifestRequestError);
    expect((error as InvalidManifestRequestError).code).toBe('invalid_manifest_request');
    expect((error as InvalidManifestRequestError).issues.join('\n')).toContain(`${path}:`);
  });
});

/** An offset inside the compressed pixels, far from any metadata or the manifest. */
function imageDataOffset(bytes: Buffer, format: C2paFormat): number {
  switch (format) {
    case 'jpeg':
      return bytes.length - 500; // entropy-coded scan data before the EOI marker
    case 'png':
      return bytes.lastIndexOf('IDAT') + 4 + 100;
    case 'webp':
      return bytes.indexOf('VP8') + 8 + 200;
    default:
      throw new Error(`no tamper offset for ${format}`);
  }
}
