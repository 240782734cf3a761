// `pnpm --filter @hallmark/verification bench`: reading both marks of a 12 MP JPEG (mark,
// manifest and fingerprint, as one verification examines a file), as a ratio to sharp's plain
// decode of the same file in the same run (the target: at most 2.0x, for a marked copy). Rounds interleave
// the two so a slow moment of the machine hits both alike; medians are reported. Exits 1 when the
// target is missed.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { embedMark } from '@hallmark/watermark-core';
import sharp from 'sharp';
import { examineImage } from '../src/index.ts';

const ROUNDS = 7;
const TARGET = 2.0;
const photo = join(import.meta.dirname, '../../../fixtures/photos/sunset-12mp.jpg');

async function timed(operation: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await operation();
  return performance.now() - start;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const original = await readFile(photo);
const { width = 0, height = 0 } = await sharp(original).metadata();
// The usual case: a copy of an output, which carries a mark (and here no manifest); and an
// unmarked photo, where the detector must try every candidate before it can say "none".
const marked = Buffer.from((await embedMark(original, 0x0123_4567_89ab_cdefn)).image);

const rows: string[] = [];
let missed = false;
for (const [what, bytes, target] of [
  ['a marked', marked, TARGET],
  ['an unmarked', original, undefined],
] as const) {
  const decode = () => sharp(bytes).raw().toBuffer();
  const examine = () => examineImage(bytes, { trustAnchors: undefined, maxPixels: 50_000_000 });
  await decode();
  await examine();
  const times = { decode: [] as number[], examine: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    times.decode.push(await timed(decode));
    times.examine.push(await timed(examine));
  }
  const baseline = median(times.decode);
  const measured = median(times.examine);
  const ratio = measured / baseline;
  const verdict = target === undefined ? '' : `<= ${target}x ${ratio <= target ? 'ok' : 'MISSED'}`;
  if (target !== undefined && ratio > target) missed = true;
  rows.push(
    `| examine ${what} ${width}x${height} JPEG (mark + manifest + fingerprint) | ${measured.toFixed(1)} | sharp decode to raw | ${baseline.toFixed(1)} | ${ratio.toFixed(2)}x | ${verdict} |`,
  );
}
console.log('| benchmark | ms | baseline | baseline ms | ratio | target |');
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
console.log(`(median of ${ROUNDS} rounds each)`);
process.exitCode = missed ? 1 : 0;
