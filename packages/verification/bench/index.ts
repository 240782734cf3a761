// `pnpm --filter @hallmark/verification bench`: reading both marks of a 12 MP JPEG (mark,
// manifest and fingerprint, as one verification examines a file), as a ratio to sharp's plain
// decode of the same file in the same run (issue 13's target: at most 2.0x). Rounds interleave
// the two so a slow moment of the machine hits both alike; medians are reported. Exits 1 when the
// target is missed.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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

const bytes = await readFile(photo);
const { width = 0, height = 0 } = await sharp(bytes).metadata();
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
console.log('| benchmark | ms | baseline | baseline ms | ratio | target |');
console.log('|---|---|---|---|---|---|');
console.log(
  `| examine a ${width}x${height} JPEG (mark + manifest + fingerprint) | ${measured.toFixed(1)} | sharp decode to raw | ${baseline.toFixed(1)} | ${ratio.toFixed(2)}x | <= ${TARGET}x ${ratio <= TARGET ? 'ok' : 'MISSED'} |`,
);
console.log(`(median of ${ROUNDS} rounds)`);
process.exitCode = ratio <= TARGET ? 0 : 1;
