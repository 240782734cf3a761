import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.ts';
import { capture } from './support/capture.ts';

const photo = join(import.meta.dirname, '../../../fixtures/photos/boats-0.6mp.jpg');

describe('hallmark mark / detect', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hallmark-mark-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('marks a JPEG as PNG (format from the extension) and detects the payload', async () => {
    const marked = join(dir, 'marked.png');
    const c = capture();
    expect(await runCli(['mark', photo, marked, '--payload', '00C0FFEE12345678'], c.io)).toBe(0);
    expect(c.out()).toContain('png 1000x625, payload 00c0ffee12345678');
    expect((await readFile(marked)).subarray(1, 4).toString()).toBe('PNG');

    const d = capture();
    expect(await runCli(['detect', marked], d.io)).toBe(0);
    expect(d.out()).toBe('00c0ffee12345678\n');

    const j = capture();
    expect(await runCli(['detect', marked, '--json'], j.io)).toBe(0);
    const result = JSON.parse(j.out()) as { found: boolean; payload: string; confidence: number };
    expect(result).toMatchObject({ found: true, payload: '00c0ffee12345678' });
    expect(result.confidence).toBeGreaterThan(0);
  });

  it('says so and exits 1 when there is no mark', async () => {
    const c = capture();
    expect(await runCli(['detect', photo], c.io)).toBe(1);
    expect(c.out()).toBe('no invisible mark found\n');
    const j = capture();
    expect(await runCli(['detect', photo, '--json'], j.io)).toBe(1);
    expect(JSON.parse(j.out())).toEqual({ found: false, payload: null, confidence: 0 });
  });

  it('rejects a bad payload or an unknown output extension as usage errors', async () => {
    const bad = capture();
    expect(await runCli(['mark', photo, join(dir, 'x.jpg'), '--payload', 'xyz'], bad.io)).toBe(2);
    expect(bad.err()).toContain('--payload must be exactly 16 hex digits');
    const ext = capture();
    expect(
      await runCli(['mark', photo, join(dir, 'x.bmp'), '--payload', '0000000000000001'], ext.io),
    ).toBe(2);
    expect(ext.err()).toContain('cannot tell the output format');
  });

  it('reports an image the mark cannot handle with its reason', async () => {
    const notImage = join(dir, 'notes.txt');
    await writeFile(notImage, 'hello');
    const c = capture();
    expect(await runCli(['detect', notImage], c.io)).toBe(1);
    expect(c.err()).toContain('hallmark detect: not a readable image');
  });
});
