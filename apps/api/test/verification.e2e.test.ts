import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HANG_MS } from '@hallmark/runtime/testing';
import { type HallmarkClient, verifyFile, watermarkFile } from '@hallmark/sdk';
import {
  createSigner,
  INVISIBLE_MARK_ALGORITHM,
  manifestLabelsOf,
  readManifestStore,
  resolveTrustAnchors,
  signManifest,
} from '@hallmark/watermark-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegPhoto } from './support/photos.ts';
import { type RunningService, startService } from './support/service.ts';

const fixtures = join(import.meta.dirname, '../../../fixtures');
const PROBLEMS = 'https://hallmark.dev/problems/';

interface Geometry {
  rotation: number;
  mirrored: boolean;
  scale: number;
  cropOffset: { x: number; y: number };
}

interface Report {
  verdict: string;
  reasons: Array<{ code: string; message: string }>;
  isWatermarked: boolean;
  watermarkTypes: string[];
  metadata: Record<string, string>;
  invisible: { found: boolean; payload: string | null; confidence: number };
  c2pa: {
    present: boolean;
    manifestId: string | null;
    state: string | null;
    signer: { trustedBy?: string | null; timeStamp?: string | null } | null;
    ingredients: Array<{ manifestId: string | null }>;
  };
  content: {
    state: string;
    coverage: number | null;
    similarity: number | null;
    regions: Array<{ x: number; y: number; width: number; height: number }>;
  };
  record: null | {
    author?: string;
    requestId?: string;
    fileId?: string;
    manifestId: string | null;
    manifestUrl: string | null;
  };
}

describe('verification: both marks read back, a verdict with reasons (real service, real images)', () => {
  let service: RunningService;
  let client: HallmarkClient;
  let apiKey: string;
  let output: Uint8Array;
  let requestId: string;
  let payload: string;

  async function verifyNow(bytes: Uint8Array, key = apiKey, contentType = 'image/jpeg') {
    const res = await fetch(`${service.baseUrl}/verify/file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
      body: bytes,
    });
    const body = (await res.json()) as { status: string; result?: Report; type?: string };
    return { status: res.status, body, report: body.result as Report };
  }

  const reasonCodes = (report: Report) => report.reasons.map((reason) => reason.code);

  beforeAll(async () => {
    service = await startService({ VERIFY_SYNC_MAX_BYTES: String(2 * 1024 * 1024) });
    ({ client, apiKey } = await service.newClient());
    const result = await watermarkFile(
      client,
      join(fixtures, 'photos/boats-0.6mp.jpg'),
      { watermarkType: ['invisible', 'c2pa'], data: { author: 'Ada', licenseType: 'CC-BY-4.0' } },
      { minIntervalMs: 50, timeoutMs: HANG_MS },
    );
    output = await result.download();
    requestId = result.job.requestId;
    const row = await service.prisma.watermarkJob.findUniqueOrThrow({ where: { id: requestId } });
    payload = row.markPayload ?? '';
  });

  afterAll(async () => {
    await service?.close();
  });

  it('the output as downloaded: authentic, with its record and ids for the key that made it', async () => {
    const { status, body, report } = await verifyNow(output);
    expect(status).toBe(200);
    expect(body.status).toBe('success');
    expect(report.verdict).toBe('authentic');
    expect(reasonCodes(report)).toEqual([
      'manifest_trusted',
      'mark_issued',
      'content_matches',
      'soft_binding_matches_mark',
    ]);
    // The issued output itself (its SHA-256 recorded with the job): all of it, unchanged.
    expect(report.content).toEqual({ state: 'same', coverage: 1, similarity: 1, regions: [] });
    expect(report).toMatchObject({
      isWatermarked: true,
      watermarkTypes: ['invisible', 'c2pa'],
      metadata: { author: 'Ada', licenseType: 'CC-BY-4.0' },
      invisible: { found: true, payload },
      c2pa: { present: true, state: 'trusted' },
      record: { author: 'Ada', requestId },
    });
    // Trusted through this deployment's own anchors (its development root), which the report names.
    expect(report.c2pa.signer).toMatchObject({ trustedBy: 'operator_anchors', timeStamp: null });
    const fingerprint = (report as unknown as { fingerprint: { distance: number } }).fingerprint;
    expect(fingerprint.distance).toBeLessThanOrEqual(4);
    const recorded = await service.prisma.verification.findUniqueOrThrow({
      where: { id: (body as unknown as { requestId: string }).requestId },
    });
    expect(recorded).toMatchObject({ verdict: 'authentic', markPayload: payload, fileId: null });
  });

  it('another key sees the published facts, never the ids', async () => {
    const other = await service.newClient();
    const { report } = await verifyNow(output, other.apiKey);
    expect(report.verdict).toBe('authentic');
    expect(report.record?.author).toBe('Ada');
    expect(report.record).not.toHaveProperty('requestId');
    expect(report.record).not.toHaveProperty('fileId');
  });

  it('re-encoded, resized to half and cropped: manifest_stripped, and the kept manifest reads against the copy', async () => {
    const { width = 0, height = 0 } = await sharp(output).metadata();
    const stripped = await sharp(output)
      .resize(Math.round(width / 2))
      .extract({
        left: 10,
        top: 8,
        width: Math.round(width / 2) - 30,
        height: Math.round(height / 2) - 20,
      })
      .jpeg({ quality: 85 })
      .toBuffer();
    const { report } = await verifyNow(stripped);
    expect(report.verdict).toBe('manifest_stripped');
    expect(
      (report as unknown as { fingerprint: { distance: number } }).fingerprint.distance,
    ).toBeLessThanOrEqual(8);
    expect(report.c2pa.present).toBe(false);
    expect(report.invisible.payload).toBe(payload);
    // What the detector undid: half the size, cut 20 x 16 output pixels from the top left.
    const geometry = (report.invisible as unknown as { geometry: Geometry }).geometry;
    expect(geometry.rotation).toBeCloseTo(0, 0);
    expect(geometry.mirrored).toBe(false);
    expect(geometry.scale).toBeGreaterThan(0.48);
    expect(geometry.scale).toBeLessThan(0.52);
    expect(Math.abs(geometry.cropOffset.x - 20)).toBeLessThanOrEqual(5);
    expect(Math.abs(geometry.cropOffset.y - 16)).toBeLessThanOrEqual(5);
    const manifestUrl = report.record?.manifestUrl ?? '';
    expect(manifestUrl).toContain('/manifests/urn%3Ac2pa%3A');

    const sidecar = await fetch(manifestUrl, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(sidecar.status).toBe(200);
    expect(sidecar.headers.get('content-type')).toBe('application/c2pa');
    const store = new Uint8Array(await sidecar.arrayBuffer());
    expect(manifestLabelsOf(store).at(-1)).toBe(report.record?.manifestId);
    const signer = await createSigner({
      kind: 'development',
      dataDir: service.env.HALLMARK_DATA_DIR ?? '',
    });
    const recovered = await readManifestStore(store, stripped, {
      trustAnchors: await resolveTrustAnchors({ signer }),
    });
    if (!recovered.present) throw new Error('the sidecar did not read');
    expect(recovered.softBinding?.payloadHex).toBe(payload);
    expect(recovered.metadata.author).toBe('Ada');
    const codes = recovered.validation.failures.map((failure) => failure.code);
    expect(codes.filter((code) => code.startsWith('claimSignature'))).toEqual([]);

    // The same copy through the job flow and the SDK.
    const { report: viaJob } = await verifyFile(client, stripped, {
      fileName: 'copy.jpg',
      minIntervalMs: 50,
      timeoutMs: HANG_MS,
    });
    expect(viaJob.verdict).toBe('manifest_stripped');
  });

  it('turned a quarter and mirrored: still found, and the report says how', async () => {
    const turned = await sharp(output).rotate(90).flop().jpeg({ quality: 90 }).toBuffer();
    const { report } = await verifyNow(turned);
    expect(report.verdict).toBe('manifest_stripped');
    const geometry = (report.invisible as unknown as { geometry: Geometry }).geometry;
    expect(geometry.mirrored).toBe(true);
    expect(Math.abs(Math.abs(geometry.rotation) - 90)).toBeLessThan(1);
    expect(geometry.scale).toBeCloseTo(1, 1);
  });

  it('the output signed again as another job (c2pa only): authentic, made from the issued version', async () => {
    const resigned = await watermarkFile(
      client,
      output,
      { watermarkType: ['c2pa'] },
      { minIntervalMs: 50, timeoutMs: HANG_MS, fileName: 'again.jpg', contentType: 'image/jpeg' },
    );
    const { report } = await verifyNow(await resigned.download());
    expect(report.verdict).toBe('authentic');
    expect(reasonCodes(report)).toEqual([
      'manifest_trusted',
      'mark_issued',
      'content_matches',
      'made_from_issued',
    ]);
    // The mark's record is the first job's; the manifest's history holds its manifest.
    expect(report.record).toMatchObject({ requestId });
    const first = await service.prisma.watermarkJob.findUniqueOrThrow({ where: { id: requestId } });
    expect(report.c2pa.ingredients.map((step) => step.manifestId)).toContain(first.manifestId);
    expect(report.c2pa.manifestId).not.toBe(first.manifestId);
  });

  it('a manifest replaced by a validly signed one naming another mark: mismatch', async () => {
    const reencoded = await sharp(output).jpeg({ quality: 95 }).toBuffer();
    const signer = await createSigner({
      kind: 'development',
      dataDir: service.env.HALLMARK_DATA_DIR ?? '',
    });
    const forged = await signManifest(
      reencoded,
      {
        data: { author: 'Mallory' },
        softBinding: { algorithm: INVISIBLE_MARK_ALGORITHM, payloadHex: 'ffffffffffffffff' },
      },
      signer,
    );
    const { report } = await verifyNow(forged.bytes);
    expect(report.verdict).toBe('mismatch');
    expect(reasonCodes(report)).toContain('soft_binding_differs');
    expect(report.c2pa.state).toBe('trusted');
  });

  it('the mark moved onto another photo (output minus input, added to it): mismatch, content_differs', async () => {
    const input = await readFile(join(fixtures, 'photos/boats-0.6mp.jpg'));
    const raw = (bytes: Uint8Array, size?: { width: number; height: number }) =>
      (size === undefined
        ? sharp(bytes)
        : sharp(bytes).resize(size.width, size.height, { fit: 'fill' })
      )
        .removeAlpha()
        .toColourspace('srgb')
        .raw()
        .toBuffer({ resolveWithObject: true });
    const marked = await raw(output);
    const size = { width: marked.info.width, height: marked.info.height };
    const original = await raw(input, size);
    const other = await raw(await readFile(join(fixtures, 'photos/dusk-lake-0.5mp.jpg')), size);
    const moved = Buffer.alloc(other.data.length);
    for (let i = 0; i < moved.length; i++) {
      const value = (other.data[i] ?? 0) + (marked.data[i] ?? 0) - (original.data[i] ?? 0);
      moved[i] = Math.max(0, Math.min(255, value));
    }
    const forgery = await sharp(moved, { raw: { ...size, channels: 3 } })
      .jpeg({ quality: 95 })
      .toBuffer();
    const { report } = await verifyNow(forgery);
    expect(report.invisible.payload).toBe(payload);
    expect(report.verdict).toBe('mismatch');
    expect(reasonCodes(report)).toContain('content_differs');
    expect(
      (report as unknown as { fingerprint: { distance: number } }).fingerprint.distance,
    ).toBeGreaterThan(16);
  });

  it('a patch pasted over the output: content_edited, where, and the picture with it drawn', async () => {
    const { width = 0, height = 0 } = await sharp(output).metadata();
    const patch = { left: Math.round(width * 0.5), top: Math.round(height * 0.2) };
    const pasted = await sharp(join(fixtures, 'photos/marigold-bokeh-0.6mp.jpg'))
      .resize(Math.round(width * 0.3), Math.round(height * 0.3), { fit: 'cover' })
      .toBuffer();
    const edited = await sharp(output)
      .composite([{ input: pasted, ...patch }])
      .jpeg({ quality: 90 })
      .toBuffer();
    const { report } = await verifyNow(edited);
    expect(report.verdict).toBe('content_edited');
    expect(reasonCodes(report)).toContain('content_edited');
    expect(report.content.state).toBe('edited');
    // One region, around the patch (0.3 x 0.3 of the picture at 0.5, 0.2).
    expect(report.content.regions).toHaveLength(1);
    const [region] = report.content.regions;
    expect(Math.abs((region?.x ?? 0) - patch.left)).toBeLessThan(width * 0.05);
    expect(Math.abs((region?.y ?? 0) - patch.top)).toBeLessThan(height * 0.05);
    expect(Math.abs((region?.width ?? 0) - width * 0.3)).toBeLessThan(width * 0.08);

    // As a job, the kept file is drawn on with the region outlined.
    const { verification } = await verifyFile(client, new Uint8Array(edited), {
      fileName: 'edited.jpg',
      minIntervalMs: 50,
      timeoutMs: HANG_MS,
    });
    const picture = await fetch(`${service.baseUrl}/verify/${verification.requestId}/regions.png`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    const drawn = await sharp(new Uint8Array(await picture.arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([drawn.info.width, drawn.info.height]).toEqual([width, height]);
    // The outline is red where the copy has the patch's edge.
    const at = ((region?.y ?? 0) * width + (region?.x ?? 0) + 5) * drawn.info.channels;
    expect(drawn.data[at]).toBeGreaterThan(200);
    expect(drawn.data[at + 1]).toBeLessThan(80);
  });

  it('one changed byte: manifest_invalid, and the mark still leads to its record', async () => {
    const changed = Uint8Array.from(output);
    const at = changed.length - 200; // in the entropy-coded data, after the manifest
    changed[at] = (changed[at] ?? 0) ^ 0x01;
    const { status, body, report } = await verifyNow(changed);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(report.verdict).toBe('manifest_invalid');
    expect(report.c2pa.state).toBe('invalid');
    expect(report.record?.requestId).toBe(requestId);
  });

  it('a third-party C2PA sample without a mark: manifest_only; an unmarked photo: no_provenance', async () => {
    const sample = await verifyNow(await readFile(join(fixtures, 'c2pa/CA.jpg')));
    expect(sample.report.verdict).toBe('manifest_only');
    expect(sample.report.record).toBeNull();
    const plain = await verifyNow(jpegPhoto);
    expect(plain.report.verdict).toBe('no_provenance');
    expect(plain.report.isWatermarked).toBe(false);
  });

  it('the C2PA Soft Binding Resolution API answers a payload and a file', async () => {
    const auth = { authorization: `Bearer ${apiKey}` };
    const row = await service.prisma.watermarkJob.findUniqueOrThrow({ where: { id: requestId } });
    const value = Buffer.from(payload, 'hex').toString('base64');
    const expected = { matches: [{ manifestId: row.manifestId, similarityScore: 100 }] };

    const algorithms = await fetch(`${service.baseUrl}/services/supportedAlgorithms`, {
      headers: auth,
    });
    expect(await algorithms.json()).toEqual({
      watermarks: [{ alg: INVISIBLE_MARK_ALGORITHM }],
      fingerprints: [],
    });
    const query = new URLSearchParams({ alg: INVISIBLE_MARK_ALGORITHM, value });
    const byGet = await fetch(`${service.baseUrl}/matches/byBinding?${query}`, { headers: auth });
    expect(await byGet.json()).toEqual(expected);
    const byPost = await fetch(`${service.baseUrl}/matches/byBinding`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ alg: INVISIBLE_MARK_ALGORITHM, value }),
    });
    expect(await byPost.json()).toEqual(expected);
    const byContent = await fetch(
      `${service.baseUrl}/matches/byContent?alg=${INVISIBLE_MARK_ALGORITHM}`,
      { method: 'POST', headers: { ...auth, 'content-type': 'image/jpeg' }, body: output },
    );
    const content = (await byContent.json()) as {
      matches: Array<{ manifestId: string; similarityScore: number }>;
    };
    expect(content.matches.map((match) => match.manifestId)).toEqual([row.manifestId]);
    expect(content.matches[0]?.similarityScore).toBeGreaterThan(50);
    const unknown = new URLSearchParams({ alg: INVISIBLE_MARK_ALGORITHM, value: 'AAAAAAAAAAA=' });
    expect(
      await (
        await fetch(`${service.baseUrl}/matches/byBinding?${unknown}`, { headers: auth })
      ).json(),
    ).toEqual({ matches: [] });
    const active = await fetch(
      `${service.baseUrl}/manifests/${encodeURIComponent(row.manifestId ?? '')}?returnActiveManifest=true`,
      { headers: auth },
    );
    expect(manifestLabelsOf(new Uint8Array(await active.arrayBuffer()))).toEqual([row.manifestId]);
    // Read with a key (the soft binding API is not public here): no shared cache keeps it.
    expect(active.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
  });

  it('bad input is problem+json: not an image, too large, unknown ids, a malformed binding', async () => {
    const auth = { authorization: `Bearer ${apiKey}` };
    const text = await verifyNow(new TextEncoder().encode('hello, world'));
    expect(text.status).toBe(415);
    expect(text.body.type).toBe(`${PROBLEMS}unsupported-media-type`);
    const big = await verifyNow(new Uint8Array(3 * 1024 * 1024));
    expect(big.status).toBe(413);
    // Matching by content reads only the mark, and refuses what is not an image the same way.
    const notAnImage = await fetch(
      `${service.baseUrl}/matches/byContent?alg=${INVISIBLE_MARK_ALGORITHM}`,
      {
        method: 'POST',
        headers: { ...auth, 'content-type': 'image/jpeg' },
        body: new TextEncoder().encode('hello, world'),
      },
    );
    expect(notAnImage.status).toBe(415);
    expect(((await notAnImage.json()) as { type: string }).type).toBe(
      `${PROBLEMS}unsupported-media-type`,
    );
    for (const [path, status] of [
      [`/verify/${crypto.randomUUID()}`, 404],
      ['/verify/not-a-uuid', 400],
      [`/manifests/urn:c2pa:${crypto.randomUUID()}`, 404],
      ['/manifests/not-a-manifest-id', 400],
      [`/matches/byBinding?alg=${INVISIBLE_MARK_ALGORITHM}&value=%%%`, 400],
      [`/matches/byBinding?alg=${INVISIBLE_MARK_ALGORITHM}`, 400],
    ] as const) {
      const res = await fetch(`${service.baseUrl}${path}`, { headers: auth });
      expect(res.status, path).toBe(status);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/problem\+json/);
    }
    const unauthenticated = await fetch(`${service.baseUrl}/services/supportedAlgorithms`);
    expect(unauthenticated.status).toBe(401);
  });
});
