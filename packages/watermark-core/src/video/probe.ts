// What the video mark needs to know about a file before piping its frames: the first video
// stream's size and frame rate, the duration, and whether there is audio to copy.

import { DEBIAN_VIDEO_TOOLS, FfmpegError, runForOutput, type VideoTools } from './ffmpeg.ts';

export interface VideoInfo {
  /**
   * The size of the frames ffmpeg decodes: a phone video stored sideways with a display matrix
   * turning it by 90 degrees is turned upright by the decoder, so its sides are swapped here.
   */
  readonly width: number;
  readonly height: number;
  /** ffprobe's r_frame_rate as written (e.g. '30000/1001'): given back to the encoder verbatim. */
  readonly frameRate: string;
  readonly fps: number;
  readonly durationSeconds: number;
  readonly hasAudio: boolean;
}

interface ProbeStream {
  readonly codec_type?: string;
  readonly width?: number;
  readonly height?: number;
  readonly r_frame_rate?: string;
  readonly duration?: string;
  readonly side_data_list?: readonly { readonly rotation?: number }[];
}

export async function probeVideo(
  path: string,
  options: { readonly signal?: AbortSignal | undefined; readonly tools?: VideoTools } = {},
): Promise<VideoInfo> {
  const { signal, tools = DEBIAN_VIDEO_TOOLS } = options;
  const text = await runForOutput(
    tools.ffprobe,
    ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', path],
    signal,
  );
  const probe = JSON.parse(text) as {
    readonly streams?: readonly ProbeStream[];
    readonly format?: { readonly duration?: string };
  };
  const video = probe.streams?.find((s) => s.codec_type === 'video');
  if (video?.width === undefined || video.height === undefined) {
    throw new FfmpegError(`${path} has no video stream`);
  }
  const frameRate = video.r_frame_rate ?? '25/1';
  const [num, den] = frameRate.split('/').map(Number);
  const fps = num !== undefined && den !== undefined && den > 0 ? num / den : Number.NaN;
  if (!(fps > 0)) throw new FfmpegError(`${path}: unreadable frame rate ${frameRate}`);
  const rotation = video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? 0;
  const sideways = Math.abs(rotation) % 180 === 90;
  return {
    width: sideways ? video.height : video.width,
    height: sideways ? video.width : video.height,
    frameRate,
    fps,
    durationSeconds: Number(probe.format?.duration ?? video.duration ?? 0),
    hasAudio: probe.streams?.some((s) => s.codec_type === 'audio') ?? false,
  };
}
