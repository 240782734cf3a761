import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTestEnv } from '@hallmark/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/free-port.ts';

const repoRoot = join(import.meta.dirname, '../../..');

/** Resolves with the output once every text appeared in it (rejects if the process ends first). */
function waitForOutput(child: ChildProcess, texts: readonly string[]): Promise<string> {
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (texts.every((text) => output.includes(text))) {
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        resolve(output);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`pnpm start ended (${code}) before it was up: ${output.slice(-2_000)}`)),
    );
  });
}

describe('pnpm start', () => {
  let testEnv: Awaited<ReturnType<typeof createTestEnv>>;

  beforeAll(async () => {
    testEnv = await createTestEnv('start', {
      PORT: String(await freePort()),
      ADMIN_PORT: String(await freePort()),
    });
  });

  afterAll(async () => {
    await testEnv?.dispose();
  });

  it('runs api, worker and the console with a development operator, then exits 0 on a Ctrl-C of its terminal', async () => {
    // detached: its own process group, like a terminal's foreground job, so the SIGINT below
    // reaches pnpm, node, api, worker and the chain at once, as a Ctrl-C does.
    // --no-build: the test run built everything, and a build here would rewrite the output
    // that test files running beside this one read.
    const child = spawn('pnpm', ['start', '--no-build'], {
      cwd: repoRoot,
      // Two API processes: a supervisor and two forks sharing one output pipe.
      env: { ...process.env, ...testEnv.env, LOG_LEVEL: 'info', API_PROCESSES: '2' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    try {
      const output = await waitForOutput(child, [
        'created the operator admin@hallmark.local',
        'Hallmark is ready',
        '"msg":"worker ready"',
        // A fork answers as soon as it listens; its line comes through the log pipe after.
        '"msg":"api listening"',
      ]);
      // Ready means answering: both servers take a request the moment the line is read.
      const [ready, consoleReady] = await Promise.all([
        fetch(`http://127.0.0.1:${testEnv.env.PORT}/health`),
        fetch(`http://127.0.0.1:${testEnv.env.ADMIN_PORT}/sign-in`),
      ]);
      expect(ready.status).toBe(200);
      expect(consoleReady.status).toBe(200);
      // The summary repeats the addresses and this start's one-time secrets, framed.
      const summary = output.slice(output.indexOf('Hallmark is ready'));
      expect(summary).toContain(`Admin console    http://127.0.0.1:${testEnv.env.ADMIN_PORT}`);
      expect(summary).toMatch(/API key +hm_\S+ +\(shown once/);
      expect(summary).toMatch(/Console sign-in +admin@hallmark\.local \/ \S+ +\(shown once\)/);
      // Nest's own start-up lines (a line per route) are off at the default level.
      expect(output).not.toContain('RouterExplorer');
      // The password printed once signs the development operator in to the admin API.
      const password = /password is shown once:\s+(\S+)/.exec(output)?.[1] ?? '';
      const signIn = await fetch(`http://127.0.0.1:${testEnv.env.PORT}/admin/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@hallmark.local', password }),
      });
      expect(signIn.status).toBe(201);
      // The console is up on its own port and talks to this API.
      const consolePage = await fetch(`http://127.0.0.1:${testEnv.env.ADMIN_PORT}/sign-in`);
      expect(consolePage.status).toBe(200);
      expect(await consolePage.text()).toContain('Hallmark console');
      // The chain's minter key reached the worker only: the processes that parse what strangers
      // send (the api's and the console's) were started without it.
      const environ = async (pid: string) =>
        (await readFile(`/proc/${pid}/environ`, 'latin1')).split('\0');
      const pids = (message: string) =>
        output
          .split('\n')
          .filter((line) => line.includes(`"msg":"${message}"`))
          .map((line) => /"pid":(\d+)/.exec(line)?.[1] ?? 'none');
      // (The second API fork may not have said it listens yet.)
      expect(pids('api listening').length).toBeGreaterThanOrEqual(1);
      expect(pids('admin listening')).toHaveLength(1);
      const served = [...pids('api listening'), ...pids('admin listening')];
      for (const pid of served) {
        expect((await environ(pid)).some((entry) => entry.startsWith('CHAIN_MINTER_KEY='))).toBe(
          false,
        );
      }
      const [workerPid] = pids('worker ready');
      expect(
        (await environ(workerPid ?? 'none')).some((entry) => entry.startsWith('CHAIN_MINTER_KEY=')),
      ).toBe(true);
      process.kill(-(child.pid as number), 'SIGINT');
      expect(await exited).toEqual([0, null]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        process.kill(-(child.pid as number), 'SIGKILL');
      }
    }
  });
});
