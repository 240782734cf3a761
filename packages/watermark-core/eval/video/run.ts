// `pnpm --filter @hallmark/watermark-core eval:video`: generates the clips (clips.ts), marks
// each with its own payload, measures the marked file's quality against the original, attacks
// it (attacks.ts), reads every copy, and counts false detections on the unmarked originals.
// Prints the tables README.md#video-mark quotes. Options: --clips=N (first N clips),
// --fp-seconds=S (time spent on unmarked windows beyond the originals' own reads, default 240).
// Files go to $HALLMARK_VIDEO_EVAL_DIR (default: a folder in the system's temp dir); the
// generated originals are kept there between runs, and so is each clip's result, under a hash
// of the code it came from (src/ and eval/video/): a run cut short resumes where it stopped, and
// any change to the code measures every clip again.

import { createHash } from 'node:crypto';
import { access, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from '../../src/video/ffmpeg.ts';
import { MARKED_CRF, MARKED_PRESET, markVideoFile, readVideoMark } from '../../src/video/index.ts';
import { ATTACKS } from './attacks.ts';
import { CLIPS, clipArgs } from './clips.ts';
import { countFalseDetections } from './false-detections.ts';
import { measureQuality, type Quality } from './quality.ts';
import { type AttackRead, type ClipResult, printTables } from './report.ts';

const option = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const clips = CLIPS.slice(0, Number(option('clips') ?? CLIPS.length));
const fpBudgetMs = Number(option('fp-seconds') ?? 240) * 1000;
const work = process.env.HALLMARK_VIDEO_EVAL_DIR ?? join(tmpdir(), 'hallmark-video-eval');
await mkdir(work, { recursive: true });

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );
const payloadOf = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 16);

/** Hash of every source file the results depend on. */
async function codeVersion(): Promise<string> {
  const hash = createHash('sha256');
  for (const root of ['../../src', '.']) {
    const dir = join(import.meta.dirname, root);
    const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.ts')).sort();
    for (const file of files) hash.update(file).update(await readFile(join(dir, file)));
  }
  return hash.digest('hex').slice(0, 16);
}
const version = await codeVersion();

const started = performance.now();
const results: ClipResult[] = [];
for (const [index, clip] of clips.entries()) {
  const base = join(work, `clip-${index}`);
  const original = `${base}.mp4`;
  if (!(await exists(original))) await runFfmpeg(clipArgs(clip, original));
  const payload = payloadOf(clip.name);
  const saved = `${base}.result-${version}.json`;
  if (await exists(saved)) {
    results.push(JSON.parse(await readFile(saved, 'utf8')) as ClipResult);
    console.error(`${clip.name}: kept from an earlier run of this code`);
    continue;
  }
  const marked = `${base}.marked.mp4`;
  const markStarted = performance.now();
  const mark = await markVideoFile(original, marked, payload);
  const markMs = performance.now() - markStarted;
  // The same encode without the mark: how much of the loss is the encoder's own.
  const plain = `${base}.plain.mp4`;
  await runFfmpeg([
    ...['-y', '-i', original, '-c:v', 'libx264', '-preset', MARKED_PRESET],
    ...['-crf', String(MARKED_CRF), '-pix_fmt', 'yuv420p', plain],
  ]);
  const quality: Quality = await measureQuality(marked, original, base);
  const plainQuality: Quality = await measureQuality(plain, original, base);
  const reads: AttackRead[] = [];
  for (const [k, attack] of ATTACKS.entries()) {
    let copy = marked;
    if (attack.args.length > 0) {
      copy = `${base}.attack-${k}.${attack.extension}`;
      await runFfmpeg([...['-y', ...(attack.before ?? []), '-i', marked], ...attack.args, copy]);
    }
    const reading = await readVideoMark(copy);
    reads.push({ attack: attack.name, reading, expected: payload });
  }
  const unmarked = await readVideoMark(original);
  const result: ClipResult = {
    clip: clip.name,
    mark,
    markMs,
    quality,
    plainQuality,
    reads,
    unmarked,
  };
  await writeFile(saved, JSON.stringify(result));
  results.push(result);
  const exact = reads.filter((r) => r.reading.payloadHex === payload).length;
  console.error(
    `${clip.name}: ${exact}/${reads.length} exact, unmarked ${unmarked.found ? 'FOUND' : 'clean'}, ` +
      `${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}
const originals = clips.map((_, index) => join(work, `clip-${index}.mp4`));
const falseDetections = await countFalseDetections(originals, fpBudgetMs);
printTables(results, falseDetections, (performance.now() - started) / 1000);
