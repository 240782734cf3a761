// How the marked frames travel and are encoded. 8-bit sources become H.264, which every player
// decodes. Sources of 10 bits and more (HDR and log footage from phones and cameras) keep 10 bits
// as HEVC Main 10, the codec those devices record them in: squeezed into 8 bits, an HDR picture
// bands, and H.264's 10-bit profile plays almost nowhere. The source's colour description goes
// with the frames, or a player would show BT.2020/HLG pictures as BT.709 ones, and so does
// HDR10's static metadata (hdr-metadata.ts), by which HDR displays tone-map the picture.

import { x265HdrParams } from './hdr-metadata.ts';
import type { VideoInfo } from './probe.ts';
import { yuv420pFrameBytes } from './raw-frames.ts';

/** Default x264 / x265 settings: a visually lossless master the marked copy stands in for. */
export const MARKED_CRF = 17;
export const MARKED_PRESET = 'medium';

export interface MarkedEncoding {
  /** The raw frames' format on both pipes. */
  readonly pixelFormat: 'yuv420p' | 'yuv420p10le';
  readonly frameBytes: number;
  /** The encoder's output options: codec, quality and colour description. */
  readonly outputArgs: readonly string[];
}

export interface EncodingChoice {
  readonly crf?: number;
  readonly preset?: string;
}

export function markedEncoding(info: VideoInfo, choice: EncodingChoice = {}): MarkedEncoding {
  const deep = info.bitDepth > 8;
  const pixelFormat = deep ? 'yuv420p10le' : 'yuv420p';
  const x265Params = ['log-level=error', ...x265HdrParams(info.hdr)].join(':');
  const codec = deep
    ? // hvc1: the sample entry Apple's players require of HEVC in MP4 and MOV.
      ['-c:v', 'libx265', '-tag:v', 'hvc1', '-x265-params', x265Params]
    : ['-c:v', 'libx264'];
  return {
    pixelFormat,
    frameBytes: yuv420pFrameBytes(info.width, info.height) * (deep ? 2 : 1),
    outputArgs: [
      ...codec,
      ...['-preset', choice.preset ?? MARKED_PRESET, '-crf', String(choice.crf ?? MARKED_CRF)],
      ...['-pix_fmt', pixelFormat],
      ...colourArgs(info),
    ],
  };
}

/**
 * The source's primaries, transfer and matrix as they were; the range is always limited: ffmpeg
 * converts full-range pictures to limited range when it hands out raw frames (measured on H.264,
 * VP9 and 10-bit HEVC sources), so that is what the frames hold.
 */
function colourArgs({ colour }: VideoInfo): string[] {
  return [
    ...(colour.primaries === undefined ? [] : ['-color_primaries', colour.primaries]),
    ...(colour.transfer === undefined ? [] : ['-color_trc', colour.transfer]),
    ...(colour.matrix === undefined ? [] : ['-colorspace', colour.matrix]),
    ...['-color_range', 'tv'],
  ];
}
