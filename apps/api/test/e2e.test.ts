import { join } from 'node:path';
import { WatermarkJobFailedError, watermarkFile } from '@hallmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from './support/service.ts';

const photo = join(import.meta.dirname, '../../../../shared/fixtures/c2pa/no_manifest.jpg');

describe('the typical flow (spec 4.9) over HTTP, api and worker as real processes', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService();
  });

  afterAll(async () => {
    await service?.close();
  });

  it('uploads, requests, polls and reports a technique the deployment lacks', async () => {
    const { client } = await service.newClient();
    const phases: string[] = [];
    const error = await watermarkFile(
      client,
      photo,
      { watermarkType: ['invisible', 'c2pa'], data: { author: 'E2E' } },
      { onProgress: (event) => phases.push(event.phase), minIntervalMs: 50 },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WatermarkJobFailedError);
    expect((error as WatermarkJobFailedError).code).toBe('technique_unavailable');
    expect(phases.slice(0, 3)).toEqual(['uploading', 'uploaded', 'queued']);
  });
});
