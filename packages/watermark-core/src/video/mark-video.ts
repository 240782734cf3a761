// markVideoFile: the image mark on every frame of a video. ffmpeg decodes the first video stream
// to raw frames on one pipe, each frame's Y plane gets the mark (luma-plane-mark.ts), and a
// second ffmpeg encodes them (marked-encoding.ts) and copies the audio from the input.

import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { payloadFromHex } from '../code/payload.ts';
import { allDone, DEBIAN_VIDEO_TOOLS, startProcess, type VideoTools } from './ffmpeg.ts';
import { LumaPlaneMarker, lumaPlane } from './luma-plane-mark.ts';
import { markedEncoding } from './marked-encoding.ts';
import { probeVideo } from './probe.ts';
import { rawFrames } from './raw-frames.ts';

export interface MarkVideoOptions {
  readonly signal?: AbortSignal;
  /** The encoder's constant rate factor for the marked file. Default MARKED_CRF. */
  readonly crf?: number;
  /** The encoder's preset. Default MARKED_PRESET. */
  readonly preset?: string;
  /** ffmpeg's -threads for the decoder and the encoder (the bench sets 1). Default: ffmpeg's. */
  readonly threads?: number;
  /** Where ffmpeg and ffprobe are. Default: Debian's. */
  readonly tools?: VideoTools;
}

export interface MarkedVideo {
  readonly width: number;
  readonly height: number;
  readonly frames: number;
  readonly durationSeconds: number;
  /**
   * Mean over frames of the mark's own PSNR on Y (dB, 8-bit), as its chip amplitudes predict it
   * before the encoder's loss; the eval measures the encoded file against the original.
   */
  readonly psnrMean?: number;
}

/**
 * The frames' perceptual mask is measured again every this many frames: the mask follows the
 * content, which moves little in a tenth of a second, and measuring it costs several times the
 * add itself (README.md#video-mark).
 */
export const MASK_INTERVAL = 3;

/**
 * Marks every frame of `inputPath` with the 64-bit `payloadHex` and writes `outputPath`, in the
 * container its name says (`.mp4`, `.mov`: ffmpeg picks it by the extension).
 */
export async function markVideoFile(
  inputPath: string,
  outputPath: string,
  payloadHex: string,
  options: MarkVideoOptions = {},
): Promise<MarkedVideo> {
  const payload = payloadFromHex(payloadHex);
  const tools = options.tools ?? DEBIAN_VIDEO_TOOLS;
  const info = await probeVideo(inputPath, { signal: options.signal, tools });
  // 4:2:0 needs even sides: an odd-sized clip (a screen recording of a window) loses its last
  // column or row.
  const width = info.width - (info.width % 2);
  const height = info.height - (info.height % 2);
  const evenSides =
    width === info.width && height === info.height ? [] : ['-vf', `crop=${width}:${height}:0:0`];
  const encoding = markedEncoding({ ...info, width, height }, options);
  // One abort for both processes: when either fails or the caller aborts, both stop.
  const stop = new AbortController();
  const onAbort = () => stop.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const threads = options.threads === undefined ? [] : ['-threads', String(options.threads)];
  const decoder = startProcess(
    tools.ffmpeg,
    [
      ...['-hide_banner', '-nostdin', '-v', 'error', ...threads, '-i', inputPath],
      ...['-map', '0:v:0', ...evenSides],
      ...['-f', 'rawvideo', '-pix_fmt', encoding.pixelFormat, 'pipe:1'],
    ],
    { signal: stop.signal, stdout: true, stage: 'decode' },
  );
  const encoder = startProcess(
    tools.ffmpeg,
    [
      ...['-hide_banner', '-v', 'error', '-y'],
      ...['-f', 'rawvideo', '-pix_fmt', encoding.pixelFormat, '-s', `${width}x${height}`],
      ...['-framerate', info.frameRate, '-i', 'pipe:0', '-i', inputPath],
      ...['-map', '0:v:0', '-map', '1:a?', '-c:a', 'copy', ...threads],
      ...encoding.outputArgs,
      ...['-movflags', '+faststart', outputPath],
    ],
    { signal: stop.signal, stdin: true, stage: 'encode' },
  );
  // A failure of either process stops the other; the one that failed by itself is reported.
  const processes = allDone([decoder, encoder], () => stop.abort());
  // Awaited below on every path; this keeps a rejection that comes first from going unhandled.
  processes.catch(() => undefined);
  try {
    const marker = new LumaPlaneMarker(width, height, payload);
    const stdin = encoder.child.stdin as Writable;
    // A write to an encoder that died raises EPIPE here; the encoder's own exit says why.
    stdin.on('error', () => stop.abort());
    let frames = 0;
    let psnrSum = 0;
    let strength: Float32Array | null = null;
    for await (const frame of rawFrames(decoder.child.stdout as Readable, encoding.frameBytes)) {
      const plane = lumaPlane(frame, width * height, encoding.pixelFormat);
      if (frames % MASK_INTERVAL === 0 || strength === null) strength = marker.strength(plane);
      const mse = marker.mark(plane, strength);
      psnrSum += 10 * Math.log10((255 * 255) / Math.max(mse, 1e-9));
      frames++;
      if (!stdin.write(frame)) await once(stdin, 'drain', { signal: stop.signal });
    }
    stdin.end();
    await processes;
    return {
      width,
      height,
      frames,
      durationSeconds: frames / info.fps,
      ...(frames > 0 ? { psnrMean: psnrSum / frames } : {}),
    };
  } catch (error) {
    stop.abort();
    // The processes' own error says more than the pipe's.
    await processes;
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}
