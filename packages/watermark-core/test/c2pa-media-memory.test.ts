// signManifestFile on a file far larger than the memory it may use: an MP4 of a few hundred MB,
// written here by streaming (the sample's boxes, then zero media data in chunks), signed file to
// file while the process's resident memory is sampled. The bound is on growth, not speed: the
// timeout only guards against a hang on a loaded machine.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSigner,
  type ManifestSigner,
  readManifestFile,
  signManifestFile,
} from '../src/c2pa/index.ts';
import { temporaryDataDir } from './c2pa-fixtures.ts';
import { mediaFixture } from './c2pa-media-samples.ts';

const SAMPLE_BYTES = 300 * 1024 * 1024;
const CHUNK_BYTES = 4 * 1024 * 1024;
/**
 * A manifest with the development chain, no thumbnail, and a Merkle tree of the media data (one
 * hash per MB) is tens of KB, never megabytes.
 */
const MAX_MANIFEST_DELTA = 1024 * 1024;

let signer: ManifestSigner;
let data: Awaited<ReturnType<typeof temporaryDataDir>>;

beforeAll(async () => {
  data = await temporaryDataDir();
  signer = await createSigner({ kind: 'development', dataDir: data.dir });
});
afterAll(() => data.remove());

/**
 * The committed MP4 sample with `extraBytes` more of (zero) media data: its last box is the
 * `mdat` (the sample is written with faststart), so growing that box keeps every sample offset
 * in `moov` valid, and the file stays a well-formed MP4.
 */
async function writeLargeMp4(path: string, extraBytes: number): Promise<void> {
  const sample = Buffer.from(await mediaFixture('sample.mp4'));
  let last = 0;
  for (let at = 0; at < sample.length; at += sample.readUInt32BE(at)) last = at;
  if (sample.toString('latin1', last + 4, last + 8) !== 'mdat') {
    throw new Error('sample.mp4 no longer ends with its mdat box');
  }
  sample.writeUInt32BE(sample.readUInt32BE(last) + extraBytes, last);
  const out = createWriteStream(path);
  const zeros = Buffer.alloc(CHUNK_BYTES);
  const chunks = [sample];
  for (let left = extraBytes; left > 0; left -= CHUNK_BYTES) {
    chunks.push(left >= CHUNK_BYTES ? zeros : zeros.subarray(0, left));
  }
  // Waiting on back-pressure keeps the test's own memory at a chunk or two.
  for (const chunk of chunks) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Runs `work` while sampling resident memory every few milliseconds; returns the peak growth. */
async function peakRssGrowth(work: () => Promise<unknown>): Promise<number> {
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, process.memoryUsage.rss()) - baseline;
}

describe('signManifestFile on a large file', () => {
  it('keeps resident memory far below the file size, and the output reads back valid', async () => {
    const input = join(data.dir, 'large.mp4');
    const output = join(data.dir, 'large-signed.mp4');
    await writeLargeMp4(input, SAMPLE_BYTES);
    const inputBytes = (await stat(input)).size;

    let signedId = '';
    const signGrowth = await peakRssGrowth(async () => {
      signedId = (await signManifestFile(input, output, { title: 'large.mp4' }, signer)).manifestId;
    });
    const outputBytes = (await stat(output)).size;
    let state = '';
    const readGrowth = await peakRssGrowth(async () => {
      const summary = await readManifestFile(output, { trustAnchors: signer.trustAnchorsPem });
      if (!summary.present) throw new Error('no manifest in the signed file');
      expect(summary.manifestLabel).toBe(signedId);
      state = summary.validation.state;
    });
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    console.info(
      `signManifestFile of ${mb(inputBytes)}: peak RSS growth ${mb(signGrowth)} signing, ` +
        `${mb(readGrowth)} reading; output ${outputBytes - inputBytes} bytes larger`,
    );

    expect(state).toBe('trusted');
    expect(outputBytes - inputBytes).toBeGreaterThan(0);
    expect(outputBytes - inputBytes).toBeLessThan(MAX_MANIFEST_DELTA);
    expect(signGrowth).toBeLessThan(inputBytes / 3);
    expect(readGrowth).toBeLessThan(inputBytes / 3);
  }, 600_000);
});
