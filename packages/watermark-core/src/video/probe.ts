// What the video mark needs to know about a file before piping its frames: the first video
// stream's size, frame rate, bit depth and colour description, the duration, and whether there
// is audio to copy.

import { DEBIAN_VIDEO_TOOLS, FfmpegError, runForOutput, type VideoTools } from './ffmpeg.ts';
import { type HdrMetadata, readHdrMetadata } from './hdr-metadata.ts';

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
  /** Bits per sample of the decoded pictures: 8, or 10 and more (HDR and log footage). */
  readonly bitDepth: number;
  /**
   * How the samples map to colours, as ffprobe names them (the names ffmpeg's -color_primaries,
   * -color_trc and -colorspace take); a field the file leaves unspecified is absent.
   */
  readonly colour: VideoColour;
  /** HDR10's mastering display and light levels, read from a 10-bit or deeper source's first frame. */
  readonly hdr?: HdrMetadata;
}

export interface VideoColour {
  readonly primaries?: string;
  readonly transfer?: string;
  readonly matrix?: string;
  /** 'tv' (limited, 16-235 at 8 bits) or 'pc' (full). */
  readonly range?: string;
}

interface ProbeStream {
  readonly codec_type?: string;
  readonly width?: number;
  readonly height?: number;
  readonly r_frame_rate?: string;
  readonly duration?: string;
  readonly pix_fmt?: string;
  readonly bits_per_raw_sample?: string;
  readonly color_primaries?: string;
  readonly color_transfer?: string;
  readonly color_space?: string;
  readonly color_range?: string;
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
  const bitDepth = bitDepthOf(video);
  // Only a 10-bit or deeper picture can be HDR10: an 8-bit file is not probed a second time.
  const hdr = bitDepth > 8 ? await readHdrMetadata(path, tools, signal) : undefined;
  return {
    width: sideways ? video.height : video.width,
    height: sideways ? video.width : video.height,
    frameRate,
    fps,
    durationSeconds: Number(probe.format?.duration ?? video.duration ?? 0),
    hasAudio: probe.streams?.some((s) => s.codec_type === 'audio') ?? false,
    bitDepth,
    colour: colourOf(video),
    ...(hdr === undefined ? {} : { hdr }),
  };
}

/**
 * From the pixel format's name (yuv420p10le: 10), which every decoder reports; an 8-bit format
 * names no depth. bits_per_raw_sample, where a decoder gives it, is taken when larger.
 */
function bitDepthOf(video: ProbeStream): number {
  const named = /(\d+)(le|be)$/.exec(video.pix_fmt ?? '');
  const fromName = named === null ? 8 : Number(named[1]);
  const raw = Number(video.bits_per_raw_sample ?? 0);
  return Math.max(fromName, Number.isInteger(raw) && raw <= 16 ? raw : 0);
}

function colourOf(video: ProbeStream): VideoColour {
  const known = (value: string | undefined) =>
    value === undefined || value === 'unknown' || value === 'reserved' || value === 'unspecified'
      ? undefined
      : value;
  const entries = {
    primaries: known(video.color_primaries),
    transfer: known(video.color_transfer),
    matrix: known(video.color_space),
    range: known(video.color_range),
  };
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
}
