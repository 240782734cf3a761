// Per-frame quality of a marked file against its original with ffmpeg's psnr and ssim filters
// (libvmaf is not in Debian 12's ffmpeg): luma PSNR and SSIM, mean and worst frame.

import { readFile, rm } from 'node:fs/promises';
import { runFfmpeg } from '../../src/video/ffmpeg.ts';

export interface Quality {
  readonly psnrMean: number;
  readonly psnrMin: number;
  readonly ssimMean: number;
  readonly ssimMin: number;
}

export async function measureQuality(
  distorted: string,
  reference: string,
  scratch: string,
): Promise<Quality> {
  const psnrLog = `${scratch}.psnr.log`;
  const ssimLog = `${scratch}.ssim.log`;
  await runFfmpeg([
    ...['-i', distorted, '-i', reference, '-filter_complex'],
    `[0:v]split[a][b];[1:v]split[c][d];[a][c]psnr=stats_file=${psnrLog};[b][d]ssim=stats_file=${ssimLog}`,
    ...['-f', 'null', '-'],
  ]);
  // Identical frames give psnr_y "inf": counted as 100 dB so the mean stays finite.
  const psnr = (await values(psnrLog, /psnr_y:(\S+)/)).map((v) => (Number.isFinite(v) ? v : 100));
  const ssim = await values(ssimLog, /Y:(\S+)/);
  await Promise.all([rm(psnrLog, { force: true }), rm(ssimLog, { force: true })]);
  return {
    psnrMean: mean(psnr),
    psnrMin: Math.min(...psnr),
    ssimMean: mean(ssim),
    ssimMin: Math.min(...ssim),
  };
}

async function values(path: string, pattern: RegExp): Promise<number[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .map((line) => pattern.exec(line)?.[1])
    .filter((v): v is string => v !== undefined)
    .map((v) => (v === 'inf' ? Number.POSITIVE_INFINITY : Number(v)));
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
