// `pnpm --filter @hallmark/watermark-core bench:video`: how fast markVideoFile marks a 1080p clip
// on one core, beside ffmpeg's own decode + encode of the same clip at the same settings in the
// same run (the ratio is what to compare: these machines are shared and noisy). The script runs
// under `taskset -c 1`, so this process and every ffmpeg it starts share one core, and ffmpeg
// gets -threads 1. Each row is the median of ROUNDS runs, rows alternating. Not part of `bench`:
// it takes minutes.

import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { DEBIAN_VIDEO_TOOLS, runFfmpeg, startProcess } from '../src/video/ffmpeg.ts';
import { MARKED_CRF, markVideoFile, probeVideo } from '../src/video/index.ts';
import { type LumaPlane, LumaPlaneMarker, lumaPlane } from '../src/video/luma-plane-mark.ts';
import { MASK_INTERVAL } from '../src/video/mark-video.ts';
import { markedEncoding } from '../src/video/marked-encoding.ts';
import { rawFrames } from '../src/video/raw-frames.ts';
import { median, timed } from './measure.ts';

const WIDTH = 1920;
const HEIGHT = 1080;
const FPS = 30;
const SECONDS = 3;
const ROUNDS = 3;
const dir = await mkdtemp(join(tmpdir(), 'hallmark-video-bench-'));
const clip = join(dir, 'clip.mp4');
// A slow zoom over a photo with a little sensor noise, at the bit rate a phone records 1080p
// (16 Mbit/s): real detail for the encoder, and a decode that costs what a camera clip's does.
await runFfmpeg([
  ...['-loop', '1', '-framerate', String(FPS), '-i'],
  join(import.meta.dirname, '../../../fixtures/photos/bridge-8mp.jpg'),
  ...[
    '-vf',
    `scale=2880:1620,zoompan=z='zoom+0.0015':d=1:s=${WIDTH}x${HEIGHT}:fps=${FPS},noise=alls=3:allf=t`,
  ],
  ...['-frames:v', String(FPS * SECONDS), '-c:v', 'libx264', '-preset', 'veryfast'],
  ...['-b:v', '16M', '-maxrate', '20M', '-bufsize', '32M', '-pix_fmt', 'yuv420p', clip],
]);
// The same clip as a phone's HDR recording (HEVC Main 10, BT.2020, HLG): the marked copy is
// then 10-bit HEVC too, and x265 is the encoder to compare with.
const hdrClip = join(dir, 'clip-hdr.mov');
await runFfmpeg([
  ...['-i', clip, '-c:v', 'libx265', '-preset', 'ultrafast', '-b:v', '16M'],
  ...['-pix_fmt', 'yuv420p10le', '-x265-params', 'log-level=error', '-tag:v', 'hvc1'],
  ...['-color_primaries', 'bt2020', '-color_trc', 'arib-std-b67', '-colorspace', 'bt2020nc'],
  hdrClip,
]);
const frames = FPS * SECONDS;

interface Source {
  readonly label: string;
  readonly path: string;
  readonly encoder: string;
}
const SDR: Source = {
  label: 'x264',
  path: clip,
  encoder: 'x264',
};
const HDR: Source = {
  label: 'x265 10-bit (HDR source)',
  path: hdrClip,
  encoder: 'x265',
};

// The baseline encodes with exactly the settings markVideoFile chooses for the source.
const transcode = async (source: Source, preset: string) => {
  const encoding = markedEncoding(await probeVideo(source.path), { preset });
  await runFfmpeg([
    ...['-y', '-threads', '1', '-i', source.path, '-threads', '1', ...encoding.outputArgs],
    join(dir, `plain-${source.encoder}-${preset}.mp4`),
  ]);
};
const mark = (source: Source, preset: string) =>
  markVideoFile(
    source.path,
    join(dir, `marked-${source.encoder}-${preset}.mp4`),
    '0123456789abcdef',
    { preset, threads: 1 },
  );

/** The marking alone, on decoded frames held in memory: what markVideoFile adds per frame. */
async function markingOnly(source: Source): Promise<number> {
  const encoding = markedEncoding(await probeVideo(source.path));
  const decoder = startProcess(
    DEBIAN_VIDEO_TOOLS.ffmpeg,
    [
      ...['-v', 'error', '-i', source.path, '-frames:v', '48'],
      ...['-f', 'rawvideo', '-pix_fmt', encoding.pixelFormat, '-'],
    ],
    { stdout: true },
  );
  const held: LumaPlane[] = [];
  for await (const frame of rawFrames(decoder.child.stdout as Readable, encoding.frameBytes)) {
    held.push(lumaPlane(frame, WIDTH * HEIGHT, encoding.pixelFormat));
  }
  await decoder.done;
  const marker = new LumaPlaneMarker(WIDTH, HEIGHT, 0x0123456789abcdefn);
  const ms = await timed(async () => {
    let strength: Float32Array | null = null;
    for (const [i, frame] of held.entries()) {
      if (i % MASK_INTERVAL === 0 || strength === null) strength = marker.strength(frame);
      marker.mark(frame, strength);
    }
  });
  return ms / held.length;
}

const rows: { name: string; ms: number; baselineMs?: number }[] = [];
const runs: [Source, string][] = [
  [SDR, 'medium'],
  [SDR, 'veryfast'],
  [SDR, 'ultrafast'],
  [HDR, 'medium'],
  [HDR, 'veryfast'],
];
for (const [source, preset] of runs) {
  const plain: number[] = [];
  const marked: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    plain.push(await timed(() => transcode(source, preset)));
    marked.push(await timed(() => mark(source, preset)));
  }
  const baselineMs = median(plain);
  rows.push({
    name: `ffmpeg decode + ${source.label} ${preset} CRF ${MARKED_CRF} (baseline)`,
    ms: baselineMs,
  });
  rows.push({
    name: `markVideoFile, ${source.label} ${preset} CRF ${MARKED_CRF}`,
    ms: median(marked),
    baselineMs,
  });
}
const perFrame = await markingOnly(SDR);
const perFrameWide = await markingOnly(HDR);
await rm(dir, { recursive: true, force: true });

const realTime = SECONDS * 1000;
console.log(
  `1080p, ${frames} frames (${SECONDS} s at ${FPS} fps); cores visible to this process: ` +
    `${availableParallelism()}; ffmpeg -threads 1; median of ${ROUNDS}.`,
);
console.log('| run | s | fps | x real time | ratio to baseline |');
console.log('|---|---|---|---|---|');
for (const row of rows) {
  console.log(
    `| ${row.name} | ${(row.ms / 1000).toFixed(1)} | ${((frames * 1000) / row.ms).toFixed(1)} | ` +
      `${(realTime / row.ms).toFixed(2)}x | ${row.baselineMs === undefined ? '' : `${(row.ms / row.baselineMs).toFixed(2)}x`} |`,
  );
}
for (const [label, ms] of [
  ['8-bit', perFrame],
  ['10-bit', perFrameWide],
] as const) {
  console.log(
    `| marking alone (mask every ${MASK_INTERVAL} frames + add), ${label}, in memory | ` +
      `${((ms * frames) / 1000).toFixed(1)} | ${(1000 / ms).toFixed(1)} | ` +
      `${(realTime / (ms * frames)).toFixed(2)}x | |`,
  );
}
