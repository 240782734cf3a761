// The video mark end to end through Debian's ffmpeg (scripts/ensure-test-packages.sh installs
// it): a small generated clip is marked, read back, re-encoded as a platform would, read again;
// the same clip unmarked must read as not found.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBIAN_VIDEO_TOOLS, FfmpegError, runFfmpeg, runForOutput } from '../src/video/ffmpeg.ts';
import { markVideoFile, readVideoMark } from '../src/video/index.ts';

// ffmpeg shares the machine with other work: generous, not a speed requirement.
const SLOW = 180_000;
const PAYLOAD = 'feedface0badc0de';

let dir = '';

/** Each stream's duration in seconds, as ffprobe reads it from the file. */
async function streamDurations(path: string): Promise<{ video: number; audio: number }> {
  const text = await runForOutput(DEBIAN_VIDEO_TOOLS.ffprobe, [
    ...['-v', 'error', '-show_entries', 'stream=codec_type,duration', '-of', 'json', path],
  ]);
  const { streams } = JSON.parse(text) as { streams: { codec_type: string; duration: string }[] };
  const of = (type: string) => Number(streams.find((s) => s.codec_type === type)?.duration);
  return { video: of('video'), audio: of('audio') };
}
const at = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hallmark-video-'));
  // 4 s of a moving fractal at 640x360, nearly lossless: the original a user would upload.
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', 'mandelbrot=s=640x360:r=25', '-t', '4'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '12', '-pix_fmt', 'yuv420p'],
    at('original.mp4'),
  ]);
}, SLOW);

afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

describe('markVideoFile / readVideoMark', () => {
  it(
    'marks every frame and reads the exact payload back',
    async () => {
      const marked = await markVideoFile(at('original.mp4'), at('marked.mp4'), PAYLOAD);
      expect(marked).toMatchObject({ width: 640, height: 360, frames: 100 });
      expect(marked.durationSeconds).toBeCloseTo(4, 5);
      // The mark's own change stays far below visibility (the image mark's floor is 40 dB).
      expect(marked.psnrMean).toBeGreaterThan(40);
      const reading = await readVideoMark(at('marked.mp4'));
      expect(reading).toMatchObject({ found: true, payloadHex: PAYLOAD, framesRead: 40 });
      expect(reading.confidence).toBeGreaterThan(0.5);
    },
    SLOW,
  );

  it(
    'reads the payload after an H.264 CRF 28 re-encode',
    async () => {
      await runFfmpeg([
        ...['-y', '-i', at('marked.mp4'), '-c:v', 'libx264', '-crf', '28', '-preset', 'medium'],
        at('crf28.mp4'),
      ]);
      const reading = await readVideoMark(at('crf28.mp4'));
      expect(reading).toMatchObject({ found: true, payloadHex: PAYLOAD });
    },
    SLOW,
  );

  it(
    'finds no mark in the unmarked original',
    async () => {
      const reading = await readVideoMark(at('original.mp4'));
      expect(reading).toEqual({ found: false, payloadHex: null, confidence: 0, framesRead: 40 });
    },
    SLOW,
  );

  it(
    'marks a sideways phone video upright, as the decoder turns it',
    async () => {
      // The stream stays 640x360; a display matrix says to show it turned by 90 degrees.
      await runFfmpeg([
        ...['-y', '-i', at('original.mp4'), '-t', '3', '-c', 'copy'],
        ...['-metadata:s:v:0', 'rotate=90', at('sideways.mp4')],
      ]);
      const marked = await markVideoFile(at('sideways.mp4'), at('upright.mp4'), PAYLOAD);
      expect(marked).toMatchObject({ width: 360, height: 640 });
      const reading = await readVideoMark(at('upright.mp4'));
      expect(reading).toMatchObject({ found: true, payloadHex: PAYLOAD });
    },
    SLOW,
  );

  it(
    'reads a mark on black and white stored at the extremes of the range (0 and 255)',
    async () => {
      // A cellular automaton drawn in pure black and white: ffmpeg stores it in Y levels 0 and
      // 255, outside video's 16-235, as screen captures of text and graphics often are.
      await runFfmpeg([
        ...['-y', '-f', 'lavfi', '-i', 'cellauto=s=960x540:r=25:rule=110:scroll=1', '-t', '4'],
        ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '12', '-pix_fmt', 'yuv420p'],
        at('binary.mp4'),
      ]);
      await markVideoFile(at('binary.mp4'), at('binary-marked.mp4'), PAYLOAD);
      await runFfmpeg([
        ...['-y', '-i', at('binary-marked.mp4'), '-c:v', 'libx264', '-crf', '18'],
        at('binary-crf18.mp4'),
      ]);
      for (const copy of ['binary-marked.mp4', 'binary-crf18.mp4']) {
        const reading = await readVideoMark(at(copy));
        expect(reading, copy).toMatchObject({ found: true, payloadHex: PAYLOAD });
      }
    },
    SLOW,
  );

  it(
    'keeps the length of a variable-frame-rate clip and its sound, re-timed to a constant rate',
    async () => {
      // 3 s at 25 fps, then 3 s at half that rate, with a tone: a phone's clip that slowed down.
      await runFfmpeg([
        ...['-y', '-f', 'lavfi', '-i', 'mandelbrot=s=320x180:r=25'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '6'],
        ...['-vf', "setpts='if(lt(T,3),PTS,PTS*2-3/TB)'", '-fps_mode', 'vfr'],
        ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-c:a', 'aac', '-shortest'],
        at('vfr.mp4'),
      ]);
      const marked = await markVideoFile(at('vfr.mp4'), at('vfr-marked.mp4'), PAYLOAD);
      const streams = await streamDurations(at('vfr-marked.mp4'));
      // Fewer frames came in (the slow half has half as many); the repeats fill the time.
      expect(marked.frames).toBeGreaterThan(140);
      expect(streams.video).toBeCloseTo(streams.audio, 0);
      expect(streams.video).toBeGreaterThan(5.5);
    },
    SLOW,
  );

  it("reports the encoder's own refusal, not the pipe it broke", async () => {
    const failure = markVideoFile(at('original.mp4'), at('refused.mp4'), PAYLOAD, {
      preset: 'no-such-preset',
    });
    await expect(failure).rejects.toThrow(FfmpegError);
    await expect(failure).rejects.toThrow(/invalid preset 'no-such-preset'/);
    await expect(failure).rejects.toMatchObject({ stage: 'encode' });
  });

  it('rejects a payload that is not 16 hex digits before starting ffmpeg', async () => {
    await expect(markVideoFile(at('original.mp4'), at('x.mp4'), 'abc')).rejects.toThrow(RangeError);
  });
});
