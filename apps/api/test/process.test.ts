import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createTestEnv } from '@hallmark/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/free-port.ts';

const entry = join(import.meta.dirname, '../dist/main.js');

describe('the api process', () => {
  let testEnv: Awaited<ReturnType<typeof createTestEnv>>;

  beforeAll(async () => {
    testEnv = await createTestEnv('api-test');
  });

  afterAll(async () => {
    await testEnv?.dispose();
  });

  it('refuses a bad environment at once, naming every wrong variable', () => {
    const result = spawnSync(process.execPath, [entry], {
      env: { ...process.env, ...testEnv.env, PORT: 'abc', LOG_LEVEL: 'chatty' },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('PORT: must be a port number');
    expect(result.stderr).toContain('LOG_LEVEL');
  });

  it('listens on PORT, logs JSON lines, is ready, and stops on SIGTERM', async () => {
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, [entry], {
      env: { ...process.env, ...testEnv.env, PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
      let listening: Record<string, unknown> | undefined;
      for await (const line of lines) {
        const entryLine = JSON.parse(line) as Record<string, unknown>;
        expect(entryLine).toMatchObject({ service: 'api', level: expect.any(String) });
        if (entryLine.msg === 'api listening') {
          listening = entryLine;
          break;
        }
      }
      expect(String(listening?.url)).toContain(`:${port}`);

      const res = await fetch(`http://127.0.0.1:${port}/ready`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'ready' });

      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
