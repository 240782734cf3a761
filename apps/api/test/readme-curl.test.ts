import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HANG_MS } from '@hallmark/runtime/testing';
import { detectMark, payloadToHex, readManifest } from '@hallmark/watermark-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from './support/service.ts';

const run = promisify(execFile);
const readme = join(import.meta.dirname, '../../../README.md');
const photo = join(import.meta.dirname, '../../../fixtures/photos/fig-0.25mp.jpg');

/** The bash block the README marks with `<!-- readme-curl ... -->`, exactly as a user copies it. */
async function readmeCurlBlock(): Promise<string> {
  const text = await readFile(readme, 'utf8');
  const block = /<!-- readme-curl[^>]*-->\n```bash[^\n]*\n([\s\S]*?)```/.exec(text)?.[1];
  if (block === undefined) throw new Error('README.md has no <!-- readme-curl --> bash block');
  return block;
}

interface BlockRun {
  code: number;
  stdout: string;
  stderr: string;
  files: string[];
  folder: string;
}

/** Runs the block with `bash -c` in a fresh folder holding `photo.jpg`, as the README says. */
async function runBlock(block: string, env: Record<string, string>): Promise<BlockRun> {
  const folder = await mkdtemp(join(tmpdir(), 'hallmark-readme-'));
  await copyFile(photo, join(folder, 'photo.jpg'));
  const result = await run('bash', ['-c', block], {
    cwd: folder,
    // The block's own wait (WAIT_SECONDS, 120 by default) ends before the process is killed, so a
    // job that never finishes shows the block's message rather than a kill.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? folder,
      WAIT_SECONDS: '110',
      ...env,
    },
    timeout: HANG_MS + 60_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof error.code === 'number' ? error.code : -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
  return { ...result, files: (await readdir(folder)).sort(), folder };
}

describe("README's curl flow, run verbatim against the real service", () => {
  let service: RunningService;
  let block: string;
  const folders: string[] = [];

  beforeAll(async () => {
    block = await readmeCurlBlock();
    service = await startService();
  });

  afterAll(async () => {
    await service?.close();
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  });

  it('ends with the watermarked file on disk, carrying both marks', async () => {
    const { apiKey } = await service.newClient();
    const result = await runBlock(block, {
      HALLMARK_URL: service.baseUrl,
      HALLMARK_API_KEY: apiKey,
    });
    folders.push(result.folder);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.files).toEqual(['photo.jpg', 'watermarked.jpg']);
    const requestId = /watermarked\.jpg: job ([0-9a-f-]{36})/.exec(result.stdout)?.[1];
    expect(requestId).toBeDefined();

    const marked = await readFile(join(result.folder, 'watermarked.jpg'));
    const row = await service.prisma.watermarkJob.findUniqueOrThrow({
      where: { id: requestId ?? '' },
    });
    expect(row.status).toBe('success');
    const detection = await detectMark(marked);
    expect(payloadToHex(detection.payload ?? 0n)).toBe(row.markPayload);
    const manifest = await readManifest(marked);
    expect(manifest.present && manifest.metadata.author).toBe('Ada');
  });

  it('stops with the problem details and no file when the key is wrong', async () => {
    const result = await runBlock(block, {
      HALLMARK_URL: service.baseUrl,
      HALLMARK_API_KEY: `hm_aaaaaaaa_${'A'.repeat(43)}`,
    });
    folders.push(result.folder);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('"status":401');
    expect(result.files).toEqual(['photo.jpg']);
  });

  it('with the worker stopped, gives up after WAIT_SECONDS with a message and no file', async () => {
    const { apiKey } = await service.newClient();
    await service.worker.stop();
    const result = await runBlock(block, {
      HALLMARK_URL: service.baseUrl,
      HALLMARK_API_KEY: apiKey,
      WAIT_SECONDS: '3',
    });
    folders.push(result.folder);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /job [0-9a-f-]{36} still pending after 3 s; is the worker running\?/,
    );
    expect(result.files).toEqual(['photo.jpg']);
  });
});
