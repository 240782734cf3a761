import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Attack, reencode } from '../eval/attacks.ts';
import { secondGenerationAttacks } from '../eval/attacks-v2.ts';
import { traceDetection } from '../src/detect/detect.ts';
import { embedMark } from '../src/invisible.ts';

const photos = join(import.meta.dirname, '../../../fixtures/photos');
const read = (file: string) => new Uint8Array(readFileSync(join(photos, file)));

describe('the search trace: which windows a detection looked at', () => {
  it('stops at the whole image when the mark is there', async () => {
    const payload = 0x0123_4567_89ab_cdefn;
    const marked = await embedMark(read('cat-0.15mp.jpg'), payload);
    const { detection, trace } = await traceDetection(marked.image);
    expect(detection).toMatchObject({ found: true, payload });
    expect(trace.windows.map((w) => [w.name, w.found])).toEqual([['whole', true]]);
  });

  it('searches every window of an unmarked image, none of them showing pilots', async () => {
    const { detection, trace } = await traceDetection(read('cat-0.15mp.jpg'));
    expect(detection.found).toBe(false);
    // A file no larger than the detection size has no finer level: the whole image, the image at
    // half resolution and its five quarter windows.
    expect(trace.windows.map((w) => w.name)).toEqual([
      'whole',
      'halved 0',
      'quarter 0',
      'quarter 1',
      'quarter 2',
      'quarter 3',
      'quarter 4',
    ]);
    for (const window of trace.windows) expect(window.maxZ).toBeLessThan(6);
  });

  it('reads a small portrait under JPEG q10 at half resolution, after the whole view', async () => {
    const payload = 0xb403_5ab2_19f5_cdbcn;
    const marked = await embedMark(read('grace-hopper-portrait-0.25mp.jpg'), payload);
    const copy = await reencode('jpeg', 10)(marked.image);
    const { detection, trace } = await traceDetection(copy);
    expect(detection).toMatchObject({ found: true, payload });
    expect(trace.windows.map((w) => [w.name, w.found])).toEqual([
      ['whole', false],
      ['halved 0', true],
    ]);
  });

  it('reads a perspective view in a quarter whose whole view shows what an unmarked one does', async () => {
    // The evaluation's copy (its payload and seed): in the whole view and at half resolution its
    // pilots stand no higher than an unmarked image's, so no statistic of those views can tell it
    // from one, and an unmarked image cannot stop there.
    const payload = 0x73f8_20b2_4723_d627n;
    const marked = await embedMark(read('fig-0.25mp.jpg'), payload);
    const perspective = secondGenerationAttacks.find((a) => a.name === 'perspective 10%');
    const copy = await (perspective as Attack).apply(marked.image, 1_847_320_302);
    const { detection, trace } = await traceDetection(copy);
    expect(detection).toMatchObject({ found: true, payload });
    expect(trace.windows.map((w) => [w.name, w.found])).toEqual([
      ['whole', false],
      ['halved 0', false],
      ['quarter 0', true],
    ]);
    for (const window of trace.windows.slice(0, 2)) expect(window.maxZ).toBeLessThan(6);
  });
});
