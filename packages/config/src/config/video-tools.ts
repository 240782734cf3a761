import type { HallmarkConfig } from './schema.ts';

/** Where the video mark's ffmpeg and ffprobe are, in the shape the engine takes them. */
export function videoTools(config: Pick<HallmarkConfig, 'HALLMARK_FFMPEG' | 'HALLMARK_FFPROBE'>): {
  readonly ffmpeg: string;
  readonly ffprobe: string;
} {
  return { ffmpeg: config.HALLMARK_FFMPEG, ffprobe: config.HALLMARK_FFPROBE };
}
