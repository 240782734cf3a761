// What the content comparison adds to verifying a marked 12 MP JPEG: the verification's pixel
// and manifest work (the mark and fingerprint from one decode, the manifest read and validated,
// as POST /verify/file does before its record lookups) against the same plus compareContent
// with the job's reference. Same bytes, alternating, median of ROUNDS. An unmarked image, or one
// whose mark this deployment did not issue, is never compared: it pays nothing.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readManifest } from '../src/c2pa/index.ts';
import { compareContent, makeContentReference } from '../src/content/index.ts';
import { readMarkAndFingerprint } from '../src/fingerprint/index.ts';
import { embedMark, payloadFromHex } from '../src/invisible.ts';
import { median, timed } from './measure.ts';
import type { BenchRow } from './types.ts';

const ROUNDS = 7;
const MAX_PIXELS = 50_000_000;
/** The content check may add at most this share to a 12 MP JPEG's verification. */
const TARGET = 1.2;

export async function bench(): Promise<BenchRow[]> {
  const photo = await readFile(
    join(import.meta.dirname, '../../../fixtures/photos/sunset-12mp.jpg'),
  );
  const marked = await embedMark(photo, payloadFromHex('0123456789abcdef'));
  const reference = await makeContentReference(marked.image, MAX_PIXELS);
  const original = { width: marked.width, height: marked.height };
  const verify = async () => {
    const [pixels] = await Promise.all([
      readMarkAndFingerprint(marked.image, MAX_PIXELS),
      readManifest(marked.image, { trustAnchors: undefined }),
    ]);
    return pixels;
  };
  const first = await verify();
  const geometry = first.detection?.geometry;
  if (geometry === undefined) throw new Error('the mark was not read');
  const withContent = async () => {
    await verify();
    await compareContent(marked.image, { reference, original, geometry, maxPixels: MAX_PIXELS });
  };
  await withContent();
  const plain: number[] = [];
  const compared: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    plain.push(await timed(verify));
    compared.push(await timed(withContent));
  }
  return [
    {
      name: `verify a marked 12 MP JPEG with its content check (median of ${ROUNDS})`,
      ms: median(compared),
      baseline: 'the same verification without it',
      baselineMs: median(plain),
      target: TARGET,
      note: `reference ${(reference.length / 1024).toFixed(0)} KiB`,
    },
  ];
}
