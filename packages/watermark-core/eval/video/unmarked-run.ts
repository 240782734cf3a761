// `pnpm --filter @hallmark/watermark-core eval:video:unmarked [--seconds=S]`: false detections of
// the video reader's detector on unmarked video of many different pictures. Every committed photo
// (fixtures/photos) becomes a 4 s 720p clip panned and zoomed slowly over it, and each clip's
// sampled frames and means of frames are read (false-detections.ts) until the budget is spent.
// Prints the windows read and how many held a mark.

import { mkdir, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from '../../src/video/ffmpeg.ts';
import { countFalseDetections } from './false-detections.ts';

const SECONDS = 4;
const FPS = 24;

const option = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const budgetMs = Number(option('seconds') ?? 1500) * 1000;
const photos = join(import.meta.dirname, '../../../../fixtures/photos');
const work = join(tmpdir(), `hallmark-video-unmarked-${process.pid}`);
await mkdir(work, { recursive: true });

const started = performance.now();
try {
  const names = (await readdir(photos)).filter((name) => name.endsWith('.jpg')).sort();
  const clips: string[] = [];
  for (const [index, name] of names.entries()) {
    const clip = join(work, `unmarked-${index}.mp4`);
    await runFfmpeg([
      ...['-loop', '1', '-framerate', String(FPS), '-i', join(photos, name)],
      ...['-vf', unmarkedPan(index), '-t', String(SECONDS)],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-pix_fmt', 'yuv420p', clip],
    ]);
    clips.push(clip);
  }
  const generatedS = (performance.now() - started) / 1000;
  const result = await countFalseDetections(clips, budgetMs);
  const totalS = (performance.now() - started) / 1000;
  console.log('| unmarked clips | windows read | marks found | clips generated in | total |');
  console.log('| --: | --: | --: | --: | --: |');
  console.log(
    `| ${clips.length} | ${result.windows} | ${result.found} | ${generatedS.toFixed(0)} s | ${totalS.toFixed(0)} s |`,
  );
} finally {
  await rm(work, { recursive: true, force: true });
}

/** A slow zoom over the photo filled to 1280x720, its drift different for each clip. */
function unmarkedPan(index: number): string {
  const drift = (index % 5) - 2;
  return [
    'scale=1280:720:force_original_aspect_ratio=increase',
    'crop=1280:720',
    `zoompan=z='min(zoom+0.0015,1.3)':x='iw/2-(iw/zoom/2)+${drift}*on':y='ih/2-(ih/zoom/2)':d=1:s=1280x720:fps=${FPS}`,
  ].join(',');
}
