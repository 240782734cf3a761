import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WatermarkJobFailedError, watermarkFile } from '@hallmark/sdk';
import {
  detectMark,
  findDevelopmentIdentity,
  payloadToHex,
  readManifest,
} from '@hallmark/watermark-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from './support/service.ts';

const photos = join(import.meta.dirname, '../../../fixtures/photos');

describe('the typical flow (upload, watermark, poll, download) over HTTP, api and worker as real processes', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService();
  });

  afterAll(async () => {
    await service?.close();
  });

  it('uploads, watermarks with both techniques, polls and downloads a file carrying both marks', async () => {
    const { client } = await service.newClient();
    const phases: string[] = [];
    const result = await watermarkFile(
      client,
      join(photos, 'clock-1mp.jpg'),
      {
        watermarkType: ['invisible', 'c2pa'],
        data: { author: 'Ada Lovelace', creationDate: '2025-01-15', copyright: '© 2025 Ada' },
      },
      { onProgress: (event) => phases.push(event.phase), minIntervalMs: 50 },
    );
    expect(result.job.status).toBe('success');
    expect(result.job.expiredAt).toBeGreaterThan(Date.now() / 1000);
    expect(phases.slice(0, 3)).toEqual(['uploading', 'uploaded', 'queued']);
    expect(phases.at(-1)).toBe('done');

    const marked = await result.download();
    const row = await service.prisma.watermarkJob.findUniqueOrThrow({
      where: { id: result.job.requestId },
    });
    expect(row.outputSizeBytes).toBe(BigInt(marked.length));
    expect((row.steps as Array<{ name: string }>).map((step) => step.name)).toEqual([
      'load',
      'invisible',
      'c2pa',
      'store',
    ]);

    const detection = await detectMark(marked);
    expect(detection.found).toBe(true);
    expect(payloadToHex(detection.payload ?? 0n)).toBe(row.markPayload);

    const identity = await findDevelopmentIdentity(service.env.HALLMARK_DATA_DIR ?? '');
    const manifest = await readManifest(marked, { trustAnchors: identity?.rootCertificatePem });
    if (!manifest.present) throw new Error('no C2PA manifest in the output');
    expect(manifest.validation.state).toBe('trusted');
    expect(manifest.metadata.author).toBe('Ada Lovelace');
    expect(manifest.identifiers).toEqual({
      fileId: result.job.fileId,
      requestId: result.job.requestId,
    });
    // The two marks point at each other: the manifest's soft binding is the invisible payload.
    expect(manifest.softBinding?.payloadHex).toBe(row.markPayload);
  });

  it('fails a valid-looking but corrupt image with invalid_image', async () => {
    const { client } = await service.newClient();
    const photo = await readFile(join(photos, 'clock-1mp.jpg'));
    const corrupt = Buffer.concat([photo.subarray(0, 600), Buffer.alloc(4_000, 0x37)]);
    const error = await watermarkFile(
      client,
      corrupt,
      { watermarkType: ['invisible', 'c2pa'] },
      { fileName: 'broken.jpg', minIntervalMs: 50 },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WatermarkJobFailedError);
    expect((error as WatermarkJobFailedError).code).toBe('invalid_image');
  });
});
