import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HANG_MS } from '@hallmark/runtime/testing';
import {
  type HallmarkClient,
  uploadFile,
  verifyFile,
  WatermarkJobFailedError,
  waitForJob,
  watermarkFile,
} from '@hallmark/sdk';
import { readManifest } from '@hallmark/watermark-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from './support/problem.ts';
import { type RunningService, startService } from './support/service.ts';

const media = join(import.meta.dirname, '../../../fixtures/media');

/** Debian's ffmpeg (scripts/ensure-test-packages.sh installs it), quietly. */
async function ffmpeg(args: readonly string[]): Promise<void> {
  await promisify(execFile)('/usr/bin/ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);
}
const poll = { minIntervalMs: 50, timeoutMs: HANG_MS };

interface Report {
  verdict: string;
  reasons: Array<{ code: string; message: string }>;
  invisible: { found: boolean };
  c2pa: { present: boolean; manifestId: string | null; state: string | null };
  content: { state: string };
}

describe('video and sound: signed, stored, read back and verified like images (real service)', () => {
  let service: RunningService;
  let client: HallmarkClient;
  let apiKey: string;
  /** Clips made by ffmpeg for the video mark. */
  let scratch = '';

  beforeAll(async () => {
    service = await startService({
      VERIFY_SYNC_MAX_BYTES: String(2 * 1024 * 1024),
      // Every sample is smaller; a movie may be larger, as the crJSON test's is.
      UPLOAD_MAX_BYTES: String(64 * 1024),
    });
    ({ client, apiKey } = await service.newClient());
    scratch = await mkdtemp(join(tmpdir(), 'hallmark-media-'));
  });

  afterAll(async () => {
    await service?.close();
    if (scratch !== '') await rm(scratch, { recursive: true, force: true });
  });

  async function verifyNow(bytes: Uint8Array, contentType: string) {
    const res = await fetch(`${service.baseUrl}/verify/file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': contentType },
      body: bytes,
    });
    return { status: res.status, report: ((await res.json()) as { result: Report }).result };
  }

  const committed = (name: string) => () => readFile(join(media, name));
  const photo = () => readFile(join(media, '../photos/fig-0.25mp.jpg'));
  it.each([
    ['sample.mp4', 'video/mp4', committed('sample.mp4')],
    ['sample.mov', 'video/quicktime', committed('sample.mov')],
    ['sample.avi', 'video/x-msvideo', committed('sample.avi')],
    ['sample.m4a', 'audio/mp4', committed('sample.m4a')],
    ['sample.mp3', 'audio/mpeg', committed('sample.mp3')],
    ['sample.wav', 'audio/wav', committed('sample.wav')],
    ['sample.flac', 'audio/flac', committed('sample.flac')],
    ['sample.svg', 'image/svg+xml', committed('sample.svg')],
    ['sample.dng', 'image/x-adobe-dng', committed('sample.dng')],
    ['sample.jxl', 'image/jxl', committed('sample-container.jxl')],
    [
      'sample.gif',
      'image/gif',
      async () =>
        sharp(await photo())
          .resize(96)
          .gif()
          .toBuffer(),
    ],
  ] as const)(
    '%s: a c2pa job signs it in its own format, with the sidecar, and it verifies',
    async (name, contentType, load) => {
      const input = await load();
      const result = await watermarkFile(
        client,
        input,
        { watermarkType: ['c2pa'], data: { author: 'Ada' } },
        { ...poll, contentType, fileName: name },
      );
      expect(result.job.status).toBe('success');
      const output = await result.download();
      // The same container, with the manifest in it: the output is a little longer.
      expect(output.length).toBeGreaterThan(input.length);
      const row = await service.prisma.watermarkJob.findUniqueOrThrow({
        where: { id: result.job.requestId },
      });
      expect(row.outputContentType).toBe(contentType);
      expect(Number(row.outputSizeBytes)).toBe(output.length);
      const summary = await readManifest(output);
      expect(summary.present).toBe(true);
      if (!summary.present) return;
      expect(summary.validation.state).not.toBe('invalid');
      expect(summary.metadata).toMatchObject({ author: 'Ada' });
      const steps = (row.steps as Array<{ name: string }>).map((step) => step.name);
      expect(steps).toEqual(['load', 'c2pa', 'store']);

      const { status, report } = await verifyNow(output, contentType);
      expect(status).toBe(200);
      expect(report.verdict).toBe('manifest_only');
      expect(report.reasons.map((reason) => reason.code)).toEqual(['manifest_trusted', 'no_mark']);
      // An MP4 or a MOV can carry the video mark: it was looked for, and not found.
      expect(report.reasons[1]?.message).toContain(
        contentType === 'video/mp4' || contentType === 'video/quicktime'
          ? 'No invisible mark was found'
          : 'cannot carry the invisible mark',
      );
      expect(report.c2pa).toMatchObject({
        present: true,
        manifestId: summary.manifestLabel,
        state: 'trusted',
      });
      expect(report.content.state).toBe('not_compared');
    },
  );

  it('a video NFT: its IPFS record, and the image the metadata names is exactly the signed video', async () => {
    const result = await watermarkFile(
      client,
      join(media, 'sample.mov'),
      { watermarkType: ['c2pa'], data: { author: 'Ada' }, mintNft: true },
      poll,
    );
    const { nft, ipfs } = result.job;
    if (nft === undefined || ipfs === undefined) throw new Error('no nft or ipfs record');
    expect(nft.metadata.attributes).toContainEqual({ trait_type: 'author', value: 'Ada' });
    const image = nft.metadata.image.replace('ipfs://', '');
    expect(image.endsWith('/sample.mov')).toBe(true);
    const served = new Uint8Array(
      await (await fetch(`${service.baseUrl}/gateway/ipfs/${image}`)).arrayBuffer(),
    );
    const downloaded = await result.download();
    expect(Buffer.from(served).equals(Buffer.from(downloaded))).toBe(true);
    const steps = await service.prisma.watermarkJob.findUniqueOrThrow({
      where: { id: result.job.requestId },
    });
    expect((steps.steps as Array<{ name: string }>).map((step) => step.name)).toEqual([
      'load',
      'c2pa',
      'store',
      'ipfs',
      'nft',
    ]);
  });

  it('a verification job reads an uploaded video or a signed FLAC through a file, with the same verdict', async () => {
    const signed = await watermarkFile(
      client,
      join(media, 'sample.mp4'),
      { watermarkType: ['c2pa'] },
      poll,
    );
    const output = await signed.download();
    const verified = await verifyFile(client, new Blob([output], { type: 'video/mp4' }), poll);
    const { report } = verified;
    expect(report.verdict).toBe('manifest_only');
    expect((report as unknown as Report).c2pa.state).toBe('trusted');
    // No picture to outline the regions on: a clear 404, not a failed decode.
    const regions = await fetch(
      `${service.baseUrl}/verify/${verified.verification.requestId}/regions.png`,
      { headers: { authorization: `Bearer ${apiKey}` } },
    );
    const problem = await expectProblem(regions, 404, 'not-found');
    expect(problem.detail).toContain('a video (video/mp4)');
    const unsigned = await verifyFile(client, join(media, 'sample.wav'), poll);
    expect(unsigned.report.verdict).toBe('no_provenance');
    // A signed FLAC opens with the ID3 tag that holds its manifest: still a FLAC at the upload.
    const flac = await watermarkFile(
      client,
      join(media, 'sample.flac'),
      { watermarkType: ['c2pa'] },
      poll,
    );
    const signedFlac = await flac.download();
    expect(Buffer.from(signedFlac.subarray(0, 3)).toString('latin1')).toBe('ID3');
    const again = await verifyFile(client, new Blob([signedFlac], { type: 'audio/flac' }), poll);
    expect(again.report.verdict).toBe('manifest_only');
  });

  const h264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '14', '-pix_fmt', 'yuv420p'];
  // What a phone records in HDR: HEVC Main 10, BT.2020, HLG.
  const hdr = [
    ...['-c:v', 'libx265', '-preset', 'fast', '-crf', '14', '-pix_fmt', 'yuv420p10le'],
    ...['-x265-params', 'log-level=error', '-tag:v', 'hvc1', '-color_primaries', 'bt2020'],
    ...['-color_trc', 'arib-std-b67', '-colorspace', 'bt2020nc'],
  ];
  it.each([
    ['MP4', 'mp4', 'video/mp4', 'isom', h264],
    ['MOV', 'mov', 'video/quicktime', 'qt  ', h264],
    ['HDR MOV', 'mov', 'video/quicktime', 'qt  ', hdr],
  ] as const)(
    'an %s marked frame by frame and signed: authentic, and a re-encoded copy still leads to its job',
    async (_kind, extension, contentType, brand, encoding) => {
      const clip = join(scratch, `clip.${extension}`);
      await ffmpeg([
        ...['-f', 'lavfi', '-i', 'mandelbrot=s=480x270:r=25', '-t', '4'],
        ...encoding,
        clip,
      ]);
      const result = await watermarkFile(
        client,
        clip,
        { watermarkType: ['invisible', 'c2pa'], data: { author: 'Ada' } },
        poll,
      );
      const row = await service.prisma.watermarkJob.findUniqueOrThrow({
        where: { id: result.job.requestId },
      });
      expect((row.steps as Array<{ name: string }>).map((step) => step.name)).toEqual([
        'load',
        'invisible',
        'c2pa',
        'store',
      ]);
      expect([row.outputWidth, row.outputHeight]).toEqual([480, 270]);
      // The marked file stays in its container: a MOV comes back a MOV.
      expect(row.outputContentType).toBe(contentType);
      const output = await result.download();
      expect(Buffer.from(output.subarray(8, 12)).toString('latin1')).toBe(brand);
      const summary = await readManifest(output);
      if (!summary.present) throw new Error(`no manifest in the marked ${extension}`);
      expect(summary.softBinding?.payloadHex).toBe(row.markPayload);

      const { report } = await verifyNow(output, contentType);
      expect(report.verdict).toBe('authentic');
      expect(report.invisible).toMatchObject({ found: true });
      expect(report.reasons.map((reason) => reason.code)).toContain('soft_binding_matches_mark');

      // A platform's re-encode drops the manifest; the mark still names the job.
      const marked = join(scratch, `marked.${extension}`);
      const copy = join(scratch, 'copy.mp4');
      await writeFile(marked, output);
      await ffmpeg(['-i', marked, '-c:v', 'libx264', '-crf', '28', '-an', copy]);
      const verified = await verifyFile(client, copy, poll);
      expect(verified.report.verdict).toBe('manifest_stripped');
      expect(verified.report.reasons.map((reason) => reason.code)).toContain('mark_issued');
    },
    HANG_MS,
  );

  /** An ffmpeg built without libx264 (Debian's has it): it decodes, and refuses the encoder. */
  async function ffmpegWithoutX264(): Promise<string> {
    const path = join(scratch, 'ffmpeg-without-x264');
    const script = [
      '#!/bin/sh',
      'for arg in "$@"; do',
      `  if [ "$arg" = libx264 ]; then echo "Unknown encoder 'libx264'" >&2; exit 1; fi`,
      'done',
      'exec /usr/bin/ffmpeg "$@"',
      '',
    ];
    await writeFile(path, script.join('\n'), { mode: 0o755 });
    return path;
  }

  it.each([
    [
      'name no ffmpeg',
      async () => ({
        HALLMARK_FFMPEG: '/nonexistent/ffmpeg',
        HALLMARK_FFPROBE: '/nonexistent/ffprobe',
      }),
      'no ffmpeg',
    ],
    [
      'name an ffmpeg that cannot encode H.264',
      async () => ({ HALLMARK_FFMPEG: await ffmpegWithoutX264() }),
      'could not encode the marked video',
    ],
  ] as const)(
    'a worker whose settings %s fails a video mark with technique_unavailable, and runs on',
    async (_settings, workerEnv, message) => {
      await service.worker.stop();
      service.worker = await service.startWorker({ env: await workerEnv() });
      try {
        const link = await client.createUploadLink({ contentType: 'video/mp4', fileName: 'a.mp4' });
        await uploadFile(link.uploadLink, await readFile(join(media, 'sample.mp4')), 'video/mp4');
        const accepted = await client.createWatermarkJob({
          fileId: link.fileId,
          options: { watermarkType: ['invisible', 'c2pa'] },
        });
        await expect(
          waitForJob(client, accepted.requestId, { timeoutMs: HANG_MS }),
        ).rejects.toThrowError(WatermarkJobFailedError);
        const job = await client.getWatermarkJob(accepted.requestId);
        expect(job.error?.code).toBe('technique_unavailable');
        expect(job.error?.message).toContain(message);
        expect(service.worker.child.exitCode).toBeNull();
      } finally {
        await service.worker.stop();
        service.worker = await service.startWorker();
      }
    },
  );

  it('a movie larger than an image may be is verified, but its crJSON is not made in memory', async () => {
    const movie = Buffer.concat([
      await readFile(join(media, 'sample.mp4')),
      Buffer.alloc(128 * 1024),
    ]);
    const verified = await verifyFile(client, new Blob([movie], { type: 'video/mp4' }), poll);
    expect(verified.verification.status).toBe('success');
    const res = await fetch(`${service.baseUrl}/verify/${verified.verification.requestId}/crjson`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    const problem = await expectProblem(res, 422, 'image-unreadable');
    expect(problem.detail).toContain(`larger than ${64 * 1024} bytes`);
  });

  it('asking for the invisible mark on an AVI is refused before anything is queued, naming the kind', async () => {
    const link = await client.createUploadLink({
      contentType: 'video/x-msvideo',
      fileName: 'clip.avi',
    });
    await uploadFile(link.uploadLink, await readFile(join(media, 'sample.avi')), 'video/x-msvideo');
    for (const watermarkType of [['invisible', 'c2pa'], ['invisible']]) {
      const res = await fetch(`${service.baseUrl}/watermark`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ fileId: link.fileId, options: { watermarkType } }),
      });
      const problem = await expectProblem(res, 422, 'mark-not-applicable');
      expect(problem.detail).toContain('a video (video/x-msvideo)');
    }
    const batch = await fetch(`${service.baseUrl}/watermark/batches`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        options: { watermarkType: ['invisible'] },
        items: [{ fileId: link.fileId }],
      }),
    });
    await expectProblem(batch, 422, 'mark-not-applicable');
    expect(await service.prisma.watermarkJob.count({ where: { fileId: link.fileId } })).toBe(0);
  });

  it('bytes of another kind than announced are refused at the upload, and nothing is kept', async () => {
    const link = await client.createUploadLink({ contentType: 'audio/wav', fileName: 'a.wav' });
    const res = await fetch(link.uploadLink, {
      method: 'PUT',
      headers: { 'content-type': 'audio/wav' },
      body: await readFile(join(media, 'sample.mp4')),
    });
    const problem = await expectProblem(res, 415, 'unsupported-media-type');
    expect(problem.detail).toBe('The bytes are video/mp4, not the declared audio/wav.');
    const file = await service.prisma.file.findUniqueOrThrow({ where: { id: link.fileId } });
    expect(file.status).not.toBe('uploaded');
  });

  it('a type it cannot sign is refused when the link is asked for, with the list of accepted ones', async () => {
    const res = await fetch(`${service.baseUrl}/claim/file-upload-link`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ contentType: 'application/pdf', fileName: 'a.pdf' }),
    });
    const problem = await expectProblem(res, 415, 'unsupported-media-type');
    expect(problem.detail).toContain('video/mp4');
    expect(problem.detail).toContain('audio/flac');
  });
});
