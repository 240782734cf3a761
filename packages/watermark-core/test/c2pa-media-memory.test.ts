// signManifestFile on a file far larger than the memory it may use: an MP4 of a few hundred MB,
// written here by streaming (the sample's boxes, then zero media data in chunks), signed file to
// file while the process's resident memory is sampled. The bound is on growth, not speed: the
// timeout only guards against a hang on a loaded machine.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { mediaTypeFor } from '@hallmark/schemas';
import { describe, expect, it } from 'vitest';
import { C2PA_STREAMED_FORMATS, readManifestFile, signManifestFile } from '../src/c2pa/index.ts';
import { useDevelopmentSigner } from './c2pa-fixtures.ts';
import { mediaFixture } from './c2pa-media-samples.ts';

const SAMPLE_BYTES = 300 * 1024 * 1024;
const CHUNK_BYTES = 4 * 1024 * 1024;
/**
 * A manifest with the development chain, no thumbnail, and a Merkle tree of the media data (one
 * hash per MB) is tens of KB, never megabytes.
 */
const MAX_MANIFEST_DELTA = 1024 * 1024;

const dev = useDevelopmentSigner();

/**
 * A committed sample with `extraBytes` more of (zero) media data at the end of its `mdat` box.
 * Sample offsets in `moov` are absolute and all point before the growth, so the file stays a
 * well-formed movie whichever side of `mdat` its `moov` lies.
 */
async function writeLargeMovie(sampleName: string, path: string, extraBytes: number) {
  const sample = Buffer.from(await mediaFixture(sampleName));
  let mdat = -1;
  for (let at = 0; at < sample.length; at += sample.readUInt32BE(at)) {
    if (sample.toString('latin1', at + 4, at + 8) === 'mdat') mdat = at;
  }
  if (mdat < 0) throw new Error(`${sampleName} has no mdat box`);
  const mdatEnd = mdat + sample.readUInt32BE(mdat);
  sample.writeUInt32BE(mdatEnd - mdat + extraBytes, mdat);
  const out = createWriteStream(path);
  const zeros = Buffer.alloc(CHUNK_BYTES);
  const chunks = [sample.subarray(0, mdatEnd)];
  for (let left = extraBytes; left > 0; left -= CHUNK_BYTES) {
    chunks.push(left >= CHUNK_BYTES ? zeros : zeros.subarray(0, left));
  }
  chunks.push(sample.subarray(mdatEnd));
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
  it.each(C2PA_STREAMED_FORMATS.map((format) => [format]))(
    '%s: keeps resident memory far below the file size, and reads back valid',
    async (format) => {
      const extension = mediaTypeFor(format).extensions[0];
      const input = join(dev.dataDir, `large.${extension}`);
      const output = join(dev.dataDir, `large-signed.${extension}`);
      await writeLargeMovie(`sample.${extension}`, input, SAMPLE_BYTES);
      const inputBytes = (await stat(input)).size;

      let signedId = '';
      const signGrowth = await peakRssGrowth(async () => {
        signedId = (
          await signManifestFile(input, output, { title: `large.${extension}` }, dev.signer)
        ).manifestId;
      });
      const outputBytes = (await stat(output)).size;
      let state = '';
      const readGrowth = await peakRssGrowth(async () => {
        const summary = await readManifestFile(output, {
          trustAnchors: dev.signer.trustAnchorsPem,
        });
        if (!summary.present) throw new Error('no manifest in the signed file');
        expect(summary.manifestLabel).toBe(signedId);
        state = summary.validation.state;
      });
      const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
      console.info(
        `${format}: signManifestFile of ${mb(inputBytes)}: peak RSS growth ${mb(signGrowth)} signing, ` +
          `${mb(readGrowth)} reading; output ${outputBytes - inputBytes} bytes larger`,
      );

      expect(state).toBe('trusted');
      expect(outputBytes - inputBytes).toBeGreaterThan(0);
      expect(outputBytes - inputBytes).toBeLessThan(MAX_MANIFEST_DELTA);
      expect(signGrowth).toBeLessThan(inputBytes / 3);
      expect(readGrowth).toBeLessThan(inputBytes / 3);
      await Promise.all([rm(input), rm(output)]);
    },
    600_000,
  );
});
