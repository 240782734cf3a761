import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  downloadFile,
  type FetchFunction,
  HallmarkApiError,
  HallmarkClient,
  isProblem,
  problemTypes,
  UnknownContentTypeError,
  uploadFile,
  WaitTimeoutError,
  type WatermarkFileOptions,
  WatermarkJobFailedError,
  type WatermarkOptions,
  type WatermarkProgress,
  waitForJob,
  watermarkFile,
} from '../src/index.ts';
import { FakeHallmarkApi, WATERMARK_PREFIX } from './fake-api.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const pixels = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const options: WatermarkOptions = { watermarkType: ['invisible', 'c2pa'] };

let api: FakeHallmarkApi;
let client: HallmarkClient;
let folder: string;

beforeAll(async () => {
  api = await FakeHallmarkApi.start();
  folder = await mkdtemp(join(tmpdir(), 'hallmark-sdk-'));
});
afterAll(async () => {
  await api.stop();
  await rm(folder, { recursive: true, force: true });
});
beforeEach(() => {
  api.requests.length = 0;
  api.pendingPolls = 1;
  api.processingPolls = 1;
  api.failWith = undefined;
  api.stuck = false;
  client = new HallmarkClient({ baseUrl: api.url, token: 'secret-token' });
});

/** Short poll intervals, and the progress events collected. */
function tracked(settings: WatermarkFileOptions = {}) {
  const events: WatermarkProgress[] = [];
  return {
    events,
    settings: {
      minIntervalMs: 1,
      maxIntervalMs: 4,
      onProgress: (event: WatermarkProgress) => events.push(event),
      ...settings,
    },
  };
}

async function rejection(call: Promise<unknown>): Promise<unknown> {
  return await call.then(
    () => expect.fail('expected the call to fail'),
    (reason: unknown) => reason,
  );
}

function expected(bytes: Uint8Array): Uint8Array {
  return new Uint8Array([...Buffer.from(WATERMARK_PREFIX), ...bytes]);
}

describe('watermarkFile', () => {
  it('watermarks bytes: upload, request, poll, then download, reporting each step', async () => {
    const { events, settings } = tracked({ contentType: 'image/png' });

    const result = await watermarkFile(client, pixels, options, settings);

    expect(result.job).toMatchObject({ status: 'success', fileId: expect.stringMatching(UUID) });
    expect(await result.download()).toEqual(expected(pixels));
    expect(api.trail).toEqual([
      'POST /claim/file-upload-link',
      'PUT /storage/uploads/:id',
      'POST /watermark',
      'GET /watermark/:id',
      'GET /watermark/:id',
      'GET /watermark/:id',
      'GET /storage/watermarked/:id',
    ]);
    const [announce, upload, request] = api.requests;
    // A name is made up for nameless bytes, with the extension of their type.
    expect(JSON.parse(announce?.body.toString() ?? '')).toEqual({
      contentType: 'image/png',
      fileName: 'upload.png',
    });
    expect(upload?.headers['content-type']).toBe('image/png');
    expect(upload?.headers.authorization).toBeUndefined();
    expect(new Uint8Array(upload?.body ?? [])).toEqual(pixels);
    expect(request?.headers['idempotency-key']).toMatch(UUID);
    expect(JSON.parse(request?.body.toString() ?? '')).toEqual({
      fileId: result.job.fileId,
      options,
    });

    expect(events.map((event) => event.phase)).toEqual([
      'uploading',
      'uploaded',
      'queued',
      'processing',
      'processing',
      'done',
    ]);
    expect(events).toMatchObject([
      { phase: 'uploading', bytes: pixels.byteLength },
      { phase: 'uploaded', fileId: result.job.fileId },
      { phase: 'queued', requestId: result.job.requestId },
      { phase: 'processing', status: 'pending', elapsedMs: expect.any(Number) },
      { phase: 'processing', status: 'processing' },
      { phase: 'done', job: result.job },
    ]);
  });

  it('watermarks a file path: name and type from the path, output written with downloadTo', async () => {
    const input = join(folder, 'Harbour Sunset.JPG');
    const output = join(folder, 'out.jpg');
    await writeFile(input, pixels);

    const result = await watermarkFile(client, input, options, tracked().settings);
    await result.downloadTo(output);

    expect(JSON.parse(api.requests[0]?.body.toString() ?? '')).toEqual({
      contentType: 'image/jpeg',
      fileName: 'Harbour Sunset.JPG',
    });
    expect(api.requests[1]?.headers['content-type']).toBe('image/jpeg');
    expect(new Uint8Array(await readFile(output))).toEqual(expected(pixels));
  });

  it('watermarks a Blob/File: type from Blob.type, name from File.name', async () => {
    const file = new File([pixels], 'photo.bin', { type: 'image/webp' });
    const { events, settings } = tracked();

    const result = await watermarkFile(client, file, options, settings);

    expect(JSON.parse(api.requests[0]?.body.toString() ?? '')).toEqual({
      contentType: 'image/webp',
      fileName: 'photo.bin',
    });
    expect(api.requests[1]?.headers['content-type']).toBe('image/webp');
    expect(events[0]).toEqual({ phase: 'uploading', bytes: pixels.byteLength });
    expect(await result.download()).toEqual(expected(pixels));
  });

  it('takes an ArrayBuffer, and explicit fileName and contentType over what the input says', async () => {
    const blob = new Blob([pixels], { type: 'image/png' });
    await watermarkFile(client, blob, options, {
      ...tracked().settings,
      fileName: 'scan.tiff',
      contentType: 'image/tiff',
    });
    await watermarkFile(client, pixels.slice().buffer, options, {
      ...tracked().settings,
      fileName: 'scan.avif',
    });

    const announced = api.requests
      .filter((request) => request.path === '/claim/file-upload-link')
      .map((request) => JSON.parse(request.body.toString()));
    expect(announced).toEqual([
      { contentType: 'image/tiff', fileName: 'scan.tiff' },
      { contentType: 'image/avif', fileName: 'scan.avif' },
    ]);
  });

  it('asks for contentType when it cannot be told, before sending anything', async () => {
    const sent: string[] = [];
    const watching = new HallmarkClient({
      baseUrl: api.url,
      fetch: (url, init) => {
        sent.push(url);
        return fetch(url, init);
      },
    });

    const error = await rejection(watermarkFile(watching, pixels, options, { fileName: 'notes' }));

    expect(error).toBeInstanceOf(UnknownContentTypeError);
    expect(error).toMatchObject({
      fileName: 'notes',
      message: expect.stringContaining('contentType'),
    });
    expect(await rejection(watermarkFile(watching, new Blob([pixels]), options))).toBeInstanceOf(
      UnknownContentTypeError,
    );
    expect(sent).toEqual([]);
  });

  it('rejects with WatermarkJobFailedError carrying the job error code', async () => {
    api.failWith = { code: 'image_too_small', message: 'The image is smaller than 256 px.' };

    const error = await rejection(
      watermarkFile(client, pixels, options, tracked({ contentType: 'image/png' }).settings),
    );

    expect(error).toBeInstanceOf(WatermarkJobFailedError);
    expect(error).toMatchObject({
      code: 'image_too_small',
      jobError: api.failWith,
      job: { status: 'failed' },
      message: 'image_too_small: The image is smaller than 256 px.',
    });
  });

  it('rejects with WaitTimeoutError when the job does not finish in time', async () => {
    api.stuck = true;
    // One poll, then a pause far past the deadline, so the deadline ends the wait and the poll
    // has ample time to land in `lastJob` even on a loaded machine.
    const { settings } = tracked({
      contentType: 'image/png',
      timeoutMs: 5_000,
      minIntervalMs: 600_000,
      maxIntervalMs: 600_000,
    });

    const error = await rejection(watermarkFile(client, pixels, options, settings));

    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 5_000, lastJob: { status: 'pending' } });
  });

  it('stops with the signal reason when aborted while waiting', async () => {
    api.stuck = true;
    const controller = new AbortController();
    let requestId = '';
    const { settings } = tracked({
      contentType: 'image/png',
      signal: controller.signal,
      onProgress: (event) => {
        if (event.phase === 'queued') requestId = event.requestId;
        if (event.phase === 'processing') controller.abort();
      },
    });

    const error = await rejection(watermarkFile(client, pixels, options, settings));

    expect(error).toMatchObject({ name: 'AbortError' });
    const polls = api.requests.filter((request) => request.path === `/watermark/${requestId}`);
    expect(polls).toHaveLength(1);
  });

  it('sends the same Idempotency-Key when the request is retried, so one job is queued', async () => {
    let dropped = false;
    // The first answer to POST /watermark is lost behind a 503, as a gateway might do it.
    const flaky: FetchFunction = async (url, init) => {
      const response = await fetch(url, init);
      if (init.method === 'POST' && url.endsWith('/watermark') && !dropped) {
        dropped = true;
        return new Response(null, { status: 503, headers: { 'retry-after': '0' } });
      }
      return response;
    };
    const retrying = new HallmarkClient({ baseUrl: api.url, token: 'secret-token', fetch: flaky });

    const result = await watermarkFile(
      retrying,
      pixels,
      options,
      tracked({ contentType: 'image/png' }).settings,
    );

    const posts = api.requests.filter((request) => request.path === '/watermark');
    expect(posts).toHaveLength(2);
    expect(posts[0]?.headers['idempotency-key']).toBe(posts[1]?.headers['idempotency-key']);
    expect(result.job.status).toBe('success');
  });
});

describe('uploadFile', () => {
  it('turns storage refusals into HallmarkApiError: used link, wrong type, bad signature', async () => {
    const { uploadLink } = await client.createUploadLink({
      contentType: 'image/png',
      fileName: 'a.png',
    });

    const wrongType = await rejection(uploadFile(uploadLink, pixels, 'image/jpeg'));
    expect(wrongType).toBeInstanceOf(HallmarkApiError);
    expect(wrongType).toMatchObject({ status: 400 });

    await uploadFile(uploadLink, pixels, 'image/png');
    const again = await rejection(uploadFile(uploadLink, pixels, 'image/png'));
    expect(isProblem(again, problemTypes.uploadAlreadyUsed)).toBe(true);

    const forged = uploadLink.replace(/signature=[^&]+/, 'signature=forged');
    const badSignature = await rejection(uploadFile(forged, pixels, 'image/png'));
    expect(isProblem(badSignature, problemTypes.invalidSignature)).toBe(true);
  });
});

describe('downloadFile', () => {
  it('reports an expired or forged download link as invalid-signature', async () => {
    const { job } = await watermarkFile(client, pixels, options, {
      ...tracked().settings,
      contentType: 'image/png',
    });
    const forged = (job.watermarkedUrl ?? '').replace(/signature=[^&]+/, 'signature=expired');

    const error = await rejection(downloadFile(forged));

    expect(isProblem(error, problemTypes.invalidSignature)).toBe(true);
    expect(error).toMatchObject({ status: 403 });
  });
});

describe('waitForJob', () => {
  it('reports each unfinished poll and resolves with the successful job', async () => {
    api.pendingPolls = 2;
    api.processingPolls = 2;
    const { fileId, uploadLink } = await client.createUploadLink({
      contentType: 'image/png',
      fileName: 'a.png',
    });
    await uploadFile(uploadLink, pixels, 'image/png');
    const { requestId } = await client.createWatermarkJob({ fileId, options });
    const statuses: string[] = [];

    const job = await waitForJob(client, requestId, {
      minIntervalMs: 1,
      maxIntervalMs: 2,
      onProgress: (event) => statuses.push(event.status),
    });

    expect(job.status).toBe('success');
    expect(job.watermarkedUrl).toContain('signature=');
    expect(statuses).toEqual(['pending', 'pending', 'processing', 'processing']);
  });

  it('rejects at once with the reason of an already aborted signal', async () => {
    const controller = new AbortController();
    const reason = new Error('user went away');
    controller.abort(reason);
    expect(
      await rejection(waitForJob(client, crypto.randomUUID(), { signal: controller.signal })),
    ).toBe(reason);
  });
});
