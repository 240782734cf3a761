// What the marked copy is encoded as: the source's bit depth, colour description and HDR10
// metadata kept, odd sides made even, through Debian's ffmpeg on small generated clips.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBIAN_VIDEO_TOOLS, runFfmpeg, runForOutput } from '../src/video/ffmpeg.ts';
import { type MarkedVideo, markVideoFile, readVideoMark } from '../src/video/index.ts';

// ffmpeg shares the machine with other work: generous, not a speed requirement.
const SLOW = 180_000;
const PAYLOAD = 'feedface0badc0de';

let dir = '';
const at = (name: string) => join(dir, name);
const BT2020_HLG = [
  ...['-color_primaries', 'bt2020', '-color_trc', 'arib-std-b67', '-colorspace', 'bt2020nc'],
];
/** HLG to SDR as a platform renders it: linear light, BT.709 primaries, a tone curve, 8-bit. */
const SDR_RENDITION = [
  'zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709',
  'tonemap=mobius,zscale=t=bt709:m=bt709:r=tv,format=yuv420p',
].join(',');
const BT601 = [
  ...['-color_primaries', 'smpte170m', '-color_trc', 'smpte170m', '-colorspace', 'smpte170m'],
];

/** The first frame's HDR10 side data (encoder notes left out: they name the encoder's version). */
async function firstFrameSideData(path: string): Promise<Record<string, unknown>[]> {
  const text = await runForOutput(DEBIAN_VIDEO_TOOLS.ffprobe, [
    ...['-v', 'error', '-select_streams', 'v:0', '-read_intervals', '%+#1'],
    ...['-show_entries', 'frame_side_data_list', '-of', 'json', path],
  ]);
  const { frames } = JSON.parse(text) as {
    frames: { side_data_list?: Record<string, unknown>[] }[];
  };
  return (frames[0]?.side_data_list ?? []).filter(
    (data) => !String(data.side_data_type).includes('User Data Unregistered'),
  );
}

/**
 * A moving fractal of `size` (e.g. '640x360') for `seconds` at 25 fps, encoded with `encoding`
 * as `name`, then marked with the fastest preset as `<stem>-marked.<ext>`.
 */
async function markedFractal(
  name: string,
  size: string,
  seconds: number,
  encoding: readonly string[],
): Promise<MarkedVideo> {
  await runFfmpeg([
    ...['-y', '-f', 'lavfi', '-i', `mandelbrot=s=${size}:r=25`, '-t', String(seconds)],
    ...encoding,
    at(name),
  ]);
  const marked = name.replace(/\.(\w+)$/, '-marked.$1');
  return markVideoFile(at(name), at(marked), PAYLOAD, { preset: 'ultrafast' });
}

/** ffmpeg's stdout as bytes (raw frames). */
async function rawOutput(args: readonly string[]): Promise<Buffer> {
  const run = promisify(execFile);
  const { stdout } = await run(DEBIAN_VIDEO_TOOLS.ffmpeg, args, {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** The first video stream's codec, sample format and colour description, as ffprobe reads them. */
async function videoStream(path: string): Promise<Record<string, string>> {
  const fields =
    'codec_name,codec_tag_string,pix_fmt,color_range,color_primaries,color_transfer,color_space';
  const text = await runForOutput(DEBIAN_VIDEO_TOOLS.ffprobe, [
    ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', `stream=${fields}`],
    ...['-of', 'json', path],
  ]);
  return (JSON.parse(text) as { streams: Record<string, string>[] }).streams[0] ?? {};
}
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hallmark-video-encoding-'));
});

afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

describe('the marked copy keeps what the source was', () => {
  it(
    'keeps a 10-bit HDR clip 10-bit, as HEVC with its colour description; its mark reads, in SDR too',
    async () => {
      // What an iPhone records in HDR: HEVC Main 10, BT.2020 primaries, the HLG transfer.
      await markedFractal('hdr.mov', '640x360', 3, [
        ...['-c:v', 'libx265', '-preset', 'ultrafast', '-crf', '12', '-pix_fmt', 'yuv420p10le'],
        ...['-x265-params', 'log-level=error', '-tag:v', 'hvc1', ...BT2020_HLG],
      ]);
      expect(await videoStream(at('hdr-marked.mov'))).toEqual({
        codec_name: 'hevc',
        codec_tag_string: 'hvc1',
        pix_fmt: 'yuv420p10le',
        color_range: 'tv',
        color_primaries: 'bt2020',
        color_transfer: 'arib-std-b67',
        color_space: 'bt2020nc',
      });
      // Real 10-bit pictures, not 8-bit ones shifted up: most samples use the two low bits.
      const raw = await rawOutput([
        ...['-v', 'error', '-i', at('hdr-marked.mov'), '-frames:v', '1'],
        ...['-f', 'rawvideo', '-pix_fmt', 'yuv420p10le', 'pipe:1'],
      ]);
      const luma = new Uint16Array(raw.buffer, raw.byteOffset, 640 * 360);
      const fine = luma.filter((sample) => sample % 4 !== 0).length;
      expect(fine / luma.length).toBeGreaterThan(0.5);
      const reading = await readVideoMark(at('hdr-marked.mov'));
      expect(reading).toMatchObject({ found: true, payloadHex: PAYLOAD });
      // A platform's SDR rendition for SDR screens: tone-mapped to BT.709, 8-bit H.264 CRF 23.
      await runFfmpeg([
        ...['-y', '-i', at('hdr-marked.mov'), '-vf', SDR_RENDITION],
        ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', at('hdr-as-sdr.mp4')],
      ]);
      const sdr = await readVideoMark(at('hdr-as-sdr.mp4'));
      expect(sdr).toMatchObject({ found: true, payloadHex: PAYLOAD });
    },
    SLOW,
  );

  it(
    "keeps an HDR10 clip's mastering display and light levels, by which displays tone-map it",
    async () => {
      // A PQ clip graded on a P3 display of 1,000 cd/m2 (the usual HDR10 master's metadata).
      const masterDisplay =
        'master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,50)';
      await markedFractal('hdr10.mp4', '320x240', 1, [
        ...['-c:v', 'libx265', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p10le', '-tag:v', 'hvc1'],
        ...['-x265-params', `log-level=error:${masterDisplay}:max-cll=1000,400`],
        ...['-color_primaries', 'bt2020', '-color_trc', 'smpte2084', '-colorspace', 'bt2020nc'],
      ]);
      const [original, marked] = await Promise.all(
        ['hdr10.mp4', 'hdr10-marked.mp4'].map(async (name) => firstFrameSideData(at(name))),
      );
      expect(marked).toEqual(original);
      expect(marked).toContainEqual(
        expect.objectContaining({
          side_data_type: 'Mastering display metadata',
          red_x: '34000/50000',
          max_luminance: '10000000/10000',
        }),
      );
      expect(marked).toContainEqual({
        side_data_type: 'Content light level metadata',
        max_content: 1000,
        max_average: 400,
      });
      expect(await videoStream(at('hdr10-marked.mp4'))).toMatchObject({
        color_transfer: 'smpte2084',
      });
    },
    SLOW,
  );

  it(
    "keeps an 8-bit clip's colour description (SD's BT.601), as H.264",
    async () => {
      await markedFractal('sd.mp4', '320x240', 1, [
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', ...BT601],
      ]);
      expect(await videoStream(at('sd-marked.mp4'))).toEqual({
        codec_name: 'h264',
        codec_tag_string: 'avc1',
        pix_fmt: 'yuv420p',
        color_range: 'tv',
        color_primaries: 'smpte170m',
        color_transfer: 'smpte170m',
        color_space: 'smpte170m',
      });
    },
    SLOW,
  );

  it(
    'marks an odd-sized clip (a screen recording of a window) without its last column and row',
    async () => {
      // 4:4:4 allows odd sides; the 4:2:0 the mark is encoded in does not.
      const marked = await markedFractal('odd.mp4', '641x361', 3, [
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '12', '-pix_fmt', 'yuv444p'],
      ]);
      expect(marked).toMatchObject({ width: 640, height: 360, frames: 75 });
      expect(await videoStream(at('odd-marked.mp4'))).toMatchObject({ pix_fmt: 'yuv420p' });
      const reading = await readVideoMark(at('odd-marked.mp4'));
      expect(reading).toMatchObject({ found: true, payloadHex: PAYLOAD });
    },
    SLOW,
  );
});
