import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.ts';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { env: {}, stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

describe('hallmark CLI', () => {
  it('prints help listing the commands', async () => {
    const c = capture();
    expect(await runCli(['--help'], c.io)).toBe(0);
    expect(c.out()).toContain('hallmark ready');
  });

  it('rejects an unknown command with exit code 2', async () => {
    const c = capture();
    expect(await runCli(['frobnicate'], c.io)).toBe(2);
    expect(c.err()).toContain('unknown command "frobnicate"');
  });

  it('reports an unreachable server as a failure, not a crash', async () => {
    const c = capture();
    const port = await closedPort();
    expect(await runCli(['ready', '--url', `http://127.0.0.1:${port}`], c.io)).toBe(1);
    expect(c.err()).toMatch(/hallmark ready: fetch failed: .*ECONNREFUSED/);
  });

  it('`pnpm --silent hallmark --version` prints only the version', () => {
    const root = join(import.meta.dirname, '../../..');
    const result = spawnSync('pnpm', ['--silent', 'hallmark', '--version'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, HALLMARK_CLI_PREBUILT: '1' },
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('0.1.0\n');
  });
});

/** A port that was just free: listen on an OS-chosen port, then close it. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
