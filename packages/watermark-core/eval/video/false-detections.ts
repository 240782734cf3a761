// False detections: the image detector run on unmarked video, on single sampled frames and on
// means of a few consecutive ones (what the reader detects on), until a time budget is spent.
// Every call that reports a mark is a false detection; the count of calls is what the claim
// rests on.

import type { Readable } from 'node:stream';
import { detectMark } from '../../src/detect/detect.ts';
import { DEBIAN_VIDEO_TOOLS, startProcess } from '../../src/video/ffmpeg.ts';
import { FrameAverage } from '../../src/video/frame-average.ts';
import { rawFrames } from '../../src/video/raw-frames.ts';
import { STORED_LUMA } from '../../src/video/read-video.ts';

/** Unmarked windows are read at 720p: the detector analyses about 0.26 MP (and twice that). */
const WIDTH = 1280;
const HEIGHT = 720;
/** Frames sampled per second, and frames per mean. */
const RATE = 4;
const PER_MEAN = 4;

export interface FalseDetections {
  readonly windows: number;
  readonly found: number;
}

export async function countFalseDetections(
  clips: readonly string[],
  budgetMs: number,
): Promise<FalseDetections> {
  const deadline = performance.now() + budgetMs;
  let windows = 0;
  let found = 0;
  for (const clip of clips) {
    if (performance.now() > deadline) break;
    const decoder = startProcess(
      DEBIAN_VIDEO_TOOLS.ffmpeg,
      [
        ...['-hide_banner', '-nostdin', '-v', 'error', '-i', clip],
        ...['-vf', [`fps=${RATE}`, `scale=${WIDTH}:${HEIGHT}`, ...STORED_LUMA].join(',')],
        ...['-f', 'rawvideo', 'pipe:1'],
      ],
      { stdout: true },
    );
    // Frames are kept (they are few) so the decoder is never blocked by the detector.
    const sampled: Uint8Array[] = [];
    for await (const frame of rawFrames(decoder.child.stdout as Readable, WIDTH * HEIGHT)) {
      sampled.push(frame);
    }
    await decoder.done;
    const means: FrameAverage[] = [];
    for (let i = 0; i + PER_MEAN <= sampled.length; i += PER_MEAN) {
      const mean = new FrameAverage(WIDTH, HEIGHT);
      for (const frame of sampled.slice(i, i + PER_MEAN)) mean.add(frame);
      means.push(mean);
    }
    const singles = sampled.map((frame) => {
      const one = new FrameAverage(WIDTH, HEIGHT);
      one.add(frame);
      return one;
    });
    for (const window of [...means, ...singles]) {
      if (performance.now() > deadline) break;
      const detection = await detectMark(await window.png());
      windows++;
      if (detection.found) found++;
    }
  }
  return { windows, found };
}
