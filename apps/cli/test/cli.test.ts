import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.ts';
import { capture } from './support/capture.ts';

describe('hallmark CLI', () => {
  it('prints help listing the commands', async () => {
    const c = capture();
    expect(await runCli(['--help'], c.io)).toBe(0);
    expect(c.out()).toContain('hallmark ready');
  });

  it('README.md lists every command of the help', async () => {
    const c = capture();
    await runCli(['--help'], c.io);
    const names = [...c.out().matchAll(/^ {2}hallmark ([a-z][a-z-]*)/gm)].map((match) => match[1]);
    expect(names).toEqual([
      'keys',
      'key-requests',
      'admins',
      'audit',
      'ready',
      'watermark',
      'verify',
      'report',
      'sign',
      'inspect',
      'conformance-check',
      'mark',
      'detect',
    ]);
    const readme = readFileSync(join(import.meta.dirname, '../README.md'), 'utf8');
    for (const name of names) expect(readme).toContain(`\`hallmark ${name} `);
  });

  it('rejects an unknown command with exit code 2', async () => {
    const c = capture();
    expect(await runCli(['frobnicate'], c.io)).toBe(2);
    expect(c.err()).toContain('unknown command "frobnicate"');
  });

  it('reports an unreachable server as a failure, not a crash', async () => {
    const c = capture();
    // Nothing listens on port 2, a privileged port below the range the system hands out (fetch
    // will not even try port 1); a port freed a moment ago could be taken by another suite.
    expect(await runCli(['ready', '--url', 'http://127.0.0.1:2'], c.io)).toBe(1);
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

  it("`pnpm hallmark` launched by an older Node (the machine's 20) warns about no engine", () => {
    const root = join(import.meta.dirname, '../../..');
    // pnpm checks engines against the Node the scripts run on (.nvmrc, via bootstrap).
    const nvmrc = readFileSync(join(root, '.nvmrc'), 'utf8').trim();
    const workspace = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
    expect(/^nodeVersion: (\S+)$/m.exec(workspace)?.[1]).toBe(nvmrc);

    // The pnpm on PATH is a `#!/usr/bin/env node` script: it runs on the first node in PATH.
    const olderNode = existsSync('/usr/bin/node') ? '/usr/bin/node' : process.execPath;
    const result = spawnSync('pnpm', ['hallmark', '--version'], {
      cwd: root,
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: `${dirname(olderNode)}:${process.env.PATH ?? ''}`,
        HALLMARK_CLI_PREBUILT: '1',
      },
    });
    expect(result.stderr).not.toMatch(/engine/i);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('0.1.0\n');
  });

  it('`./dev install-cli DIR`: a `hallmark` that runs anywhere, on the right Node whatever PATH holds', () => {
    const root = join(import.meta.dirname, '../../..');
    const bin = mkdtempSync(join(tmpdir(), 'hallmark-bin-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'hallmark-installed-cli-'));
    try {
      const install = spawnSync(join(root, 'dev'), ['install-cli', bin], {
        encoding: 'utf8',
        // Built by this very turbo run, which must not be entered again.
        env: { ...process.env, HALLMARK_CLI_PREBUILT: '1' },
      });
      expect(install.status, install.stderr).toBe(0);
      expect(install.stderr).toContain(`is not on your PATH`);
      copyFileSync(join(root, 'fixtures/photos/fig-0.25mp.jpg'), join(elsewhere, 'unmarked.jpg'));
      // Only the machine's own programs on PATH (its node, if any, may be too old).
      const result = spawnSync(join(bin, 'hallmark'), ['detect', 'unmarked.jpg'], {
        cwd: elsewhere,
        encoding: 'utf8',
        env: { HOME: elsewhere, PATH: '/usr/bin:/bin' },
      });
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe('no invisible mark found\n');
      expect(result.status).toBe(1);
    } finally {
      rmSync(bin, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('`./dev hallmark` from another folder: files relative to it, the exit code without noise', () => {
    const root = join(import.meta.dirname, '../../..');
    const elsewhere = mkdtempSync(join(tmpdir(), 'hallmark-dev-cli-'));
    try {
      copyFileSync(join(root, 'fixtures/photos/fig-0.25mp.jpg'), join(elsewhere, 'unmarked.jpg'));
      const result = spawnSync(join(root, 'dev'), ['hallmark', 'detect', 'unmarked.jpg'], {
        cwd: elsewhere,
        encoding: 'utf8',
        // Built by this very turbo run, which must not be entered again.
        env: { ...process.env, HALLMARK_CLI_PREBUILT: '1' },
      });
      expect(result.stdout).toBe('no invisible mark found\n');
      expect(result.status).toBe(1);
      expect(result.stderr).not.toContain('ELIFECYCLE');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
