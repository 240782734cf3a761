// readVideoMark: samples grey frames from the start of a video with ffmpeg, averages them (over
// the whole span read, then over shorter windows) and runs the image detector on each mean until
// one holds the mark. A mark found on any mean is reported: the 48-bit check value keeps a false
// detection at 4.4e-11 per detector call (src/detect/detect.ts), and a read makes at most
// 1 + MAX_WINDOWS calls.

import type { Readable } from 'node:stream';
import { payloadToHex } from '../code/payload.ts';
import { detectMark } from '../detect/detect.ts';
import { DEBIAN_VIDEO_TOOLS, startProcess, type VideoTools } from './ffmpeg.ts';
import { FrameAverage } from './frame-average.ts';
import { probeVideo } from './probe.ts';
import { rawFrames } from './raw-frames.ts';

export interface ReadVideoOptions {
  readonly signal?: AbortSignal;
  /** Where to start reading, in seconds. Default 0. */
  readonly startSeconds?: number;
  /** How much of the video to read, in seconds. Default 10. */
  readonly seconds?: number;
  /** Frames sampled per second of video. Default 10. */
  readonly samplesPerSecond?: number;
  /** Where ffmpeg and ffprobe are. Default: Debian's. */
  readonly tools?: VideoTools;
}

export interface VideoMarkReading {
  readonly found: boolean;
  readonly payloadHex: string | null;
  /** The detector's confidence on the mean that held the mark (0 when none did). */
  readonly confidence: number;
  /** Frames sampled and averaged. */
  readonly framesRead: number;
}

/**
 * ffmpeg filters that hand over the Y plane as it is stored: format=gray would map limited range
 * to full and clip every level under 16 and over 235, where a mark on black or white content sits.
 */
export const STORED_LUMA: readonly string[] = ['format=yuv420p', 'extractplanes=y'];

/** Seconds per window tried after the whole span: long enough to average a scene's motion. */
export const WINDOW_SECONDS = 3;
/** Windows tried at most after the whole span's mean. */
export const MAX_WINDOWS = 4;
/**
 * Frames larger than this are scaled down before averaging: the detector analyses about 0.26 MP
 * and at most twice that per side (detect.ts), so a 4K frame carries nothing more for it.
 */
const MAX_READ_PIXELS = 1920 * 1080;

export async function readVideoMark(
  path: string,
  options: ReadVideoOptions = {},
): Promise<VideoMarkReading> {
  const tools = options.tools ?? DEBIAN_VIDEO_TOOLS;
  const info = await probeVideo(path, { signal: options.signal, tools });
  const shrink = Math.min(1, Math.sqrt(MAX_READ_PIXELS / (info.width * info.height)));
  const width = shrink < 1 ? 2 * Math.round((info.width * shrink) / 2) : info.width;
  const height = shrink < 1 ? 2 * Math.round((info.height * shrink) / 2) : info.height;
  const rate = options.samplesPerSecond ?? 10;
  const filters = [
    `fps=${rate}`,
    ...(shrink < 1 ? [`scale=${width}:${height}:flags=area`] : []),
    ...STORED_LUMA,
  ];
  const decoder = startProcess(
    tools.ffmpeg,
    [
      ...['-hide_banner', '-nostdin', '-v', 'error'],
      ...['-ss', String(options.startSeconds ?? 0), '-t', String(options.seconds ?? 10)],
      ...['-i', path, '-map', '0:v:0', '-vf', filters.join(','), '-f', 'rawvideo', 'pipe:1'],
    ],
    { stdout: true, ...(options.signal ? { signal: options.signal } : {}) },
  );
  const whole = new FrameAverage(width, height);
  const windows: FrameAverage[] = [];
  const perWindow = Math.max(1, Math.round(WINDOW_SECONDS * rate));
  try {
    for await (const frame of rawFrames(decoder.child.stdout as Readable, width * height)) {
      whole.add(frame);
      const index = Math.floor((whole.frames - 1) / perWindow);
      if (index >= MAX_WINDOWS) continue;
      if (windows[index] === undefined) windows[index] = new FrameAverage(width, height);
      windows[index]?.add(frame);
    }
  } finally {
    // A reader that stopped early has the process's error to report, or none.
    await decoder.done;
  }
  const framesRead = whole.frames;
  if (framesRead === 0) return { found: false, payloadHex: null, confidence: 0, framesRead };
  // The whole span first; windows only when there are several (one window is the whole span),
  // for a video whose unmarked part would dilute the marked one.
  const means = [whole, ...(windows.length > 1 ? windows.filter((w) => w.frames > 1) : [])];
  for (const mean of means) {
    options.signal?.throwIfAborted();
    const found = await detectMark(await mean.png());
    if (found.found && found.payload !== null) {
      return {
        found: true,
        payloadHex: payloadToHex(found.payload),
        confidence: found.confidence,
        framesRead,
      };
    }
  }
  return { found: false, payloadHex: null, confidence: 0, framesRead };
}
