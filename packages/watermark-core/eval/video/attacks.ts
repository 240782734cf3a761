// What a marked video goes through on its way around: platform re-encodes, rescaling,
// cropping, a sped-up copy, a screen recording and a short excerpt. Each attack is one ffmpeg run
// from the marked file. The two quality re-encodes use x264's default preset (medium), what a
// platform's offline encoder is closer to; the geometric ones re-encode at CRF 23 with veryfast,
// to keep the evaluation within minutes on one core.

export interface Attack {
  readonly name: string;
  /** The output's extension (the container the codec goes in). */
  readonly extension: 'mp4' | 'webm';
  /** ffmpeg arguments between the input and the output. */
  readonly args: readonly string[];
  /** Arguments before -i (seeking). */
  readonly before?: readonly string[];
}

const h264 = (crf: number, preset = 'veryfast') => [
  ...['-c:v', 'libx264', '-preset', preset, '-crf', String(crf), '-pix_fmt', 'yuv420p'],
];
const even = (expr: string) => `trunc(${expr}/2)*2`;

export const ATTACKS: readonly Attack[] = [
  { name: 'none (marked file)', extension: 'mp4', args: [] },
  { name: 'H.264 CRF 23', extension: 'mp4', args: h264(23, 'medium') },
  { name: 'H.264 CRF 28', extension: 'mp4', args: h264(28, 'medium') },
  {
    name: 'VP9 CRF 33',
    extension: 'webm',
    // realtime + cpu-used 8: the fastest libvpx mode, which also spends the fewest bits on detail.
    args: [
      ...['-c:v', 'libvpx-vp9', '-crf', '33', '-b:v', '0'],
      ...['-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1'],
    ],
  },
  { name: 'scale to 720p', extension: 'mp4', args: ['-vf', 'scale=-2:720', ...h264(23)] },
  { name: 'scale to 480p', extension: 'mp4', args: ['-vf', 'scale=-2:480', ...h264(23)] },
  {
    name: 'crop 10 % per side',
    extension: 'mp4',
    args: ['-vf', `crop=${even('iw*0.8')}:${even('ih*0.8')}`, ...h264(23)],
  },
  {
    name: '2x speed-up',
    extension: 'mp4',
    // Same frame rate out: every other frame is dropped, as a sped-up upload does.
    args: ['-vf', 'setpts=0.5*PTS', '-an', ...h264(23)],
  },
  {
    name: 'screen recording 30 fps',
    extension: 'mp4',
    // The player scaled into a 1920x1080 desktop at 1440x810 under a bar of window chrome,
    // captured at 30 fps.
    args: [
      '-vf',
      'scale=1440:810,pad=1920:1080:240:150:color=0x202124,' +
        'drawbox=x=0:y=0:w=1920:h=96:color=0x3c4043:t=fill,' +
        'drawbox=x=240:y=960:w=1440:h=6:color=0xff0000:t=fill,fps=30',
      ...h264(23),
    ],
  },
  {
    name: '3 s from the middle',
    extension: 'mp4',
    before: ['-ss', '1.5'],
    args: ['-t', '3', ...h264(23)],
  },
];
