import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createTestEnv, HANG_MS, waitFor } from '@hallmark/runtime/testing';
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
      // A bound for a hang only: on a loaded machine the process may take many seconds to get as
      // far as reading its environment, and a kill would show as status null.
      timeout: HANG_MS,
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('PORT: must be a port number');
    expect(result.stderr).toContain('LOG_LEVEL');
  });

  it('refuses to start in production with the placeholder secret compose once shipped', () => {
    const result = spawnSync(process.execPath, [entry], {
      env: {
        ...process.env,
        ...testEnv.env,
        NODE_ENV: 'production',
        HALLMARK_SECRET: 'change-me-to-32-or-more-random-characters',
      },
      encoding: 'utf8',
      timeout: HANG_MS,
    });
    expect(result.status).toBe(78);
    expect(result.stderr).toMatch(/HALLMARK_SECRET: looks like a placeholder/);
  });

  it('the compose file holds no secret and publishes the API on loopback only', () => {
    const compose = readFileSync(join(import.meta.dirname, '../../../infra/compose.yaml'), 'utf8');
    // Compose's `${VAR:?message}` stops `docker compose up` when the variable is unset.
    expect(compose).toMatch(/HALLMARK_SECRET: \$\{HALLMARK_SECRET:\?[^}]+\}/);
    const published = [...compose.matchAll(/ports: \[([^\]]*)\]/g)].flatMap((m) =>
      (m[1] ?? '').split(',').map((port) => port.trim().replaceAll('"', '')),
    );
    expect(published.length).toBeGreaterThanOrEqual(3);
    for (const port of published) expect(port).toMatch(/^127\.0\.0\.1:/);
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

  it('API_PROCESSES=2: two processes answer on one port, one that dies is replaced, SIGTERM stops all', async () => {
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, [entry], {
      env: {
        ...process.env,
        ...testEnv.env,
        PORT: String(port),
        LOG_LEVEL: 'info',
        API_PROCESSES: '2',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pids: number[] = [];
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const entryLine = JSON.parse(line) as { msg?: string; pid?: number };
      if (entryLine.msg === 'api listening' && entryLine.pid !== undefined)
        pids.push(entryLine.pid);
    });
    const listening = (count: number) =>
      waitFor(() => pids.length >= count, `${count} api processes to have listened`);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      await listening(2);
      expect(new Set(pids).size).toBe(2);
      expect(pids).not.toContain(child.pid);
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);

      process.kill(pids[0] as number, 'SIGKILL');
      await listening(3);
      expect(alive(pids[0] as number)).toBe(false);
      for (let i = 0; i < 4; i++) {
        expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      }

      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
      expect(pids.slice(1).filter(alive)).toEqual([]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      for (const pid of pids.filter(alive)) process.kill(pid, 'SIGKILL');
    }
  });
});
