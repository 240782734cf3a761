import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadServiceKeys } from '../src/index.ts';

const serviceKeysModule = new URL('../src/service-keys.ts', import.meta.url).href;

describe('loadServiceKeys', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'hallmark-keys-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('gives every process starting at once the same complete secret', async () => {
    // Real processes, as api and worker start side by side on a fresh machine, released together
    // once all are loaded (a line on their stdin): each prints the key it derived, or fails on a
    // half-written secret.
    const script = `import { once } from 'node:events';
      import { loadServiceKeys } from ${JSON.stringify(serviceKeysModule)};
      console.log('ready');
      await once(process.stdin, 'data');
      const keys = await loadServiceKeys({ HALLMARK_DATA_DIR: process.argv[1] });
      console.log(Buffer.from(keys.accessTokens).toString('hex'));`;
    const children = Array.from({ length: 6 }, () => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script, dataDir], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      const lines: string[] = [];
      createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
      return { child, lines, closed: once(child, 'close') };
    });
    await until(() =>
      children.every(({ child, lines }) => lines.length > 0 || child.exitCode !== null),
    );
    // Ending stdin also lets each process exit once it has printed its key. One that already
    // failed cannot read it (EPIPE): its exit code tells.
    for (const { child } of children) child.stdin.on('error', () => {}).end('go\n');
    const codes = await Promise.all(children.map(async ({ closed }) => (await closed)[0]));
    expect(codes).toEqual(Array(6).fill(0));
    const printed = new Set(children.map(({ lines }) => lines.slice(1).join('\n')));
    expect(printed.size).toBe(1);
    expect([...printed][0]).toMatch(/^[0-9a-f]{64}$/);
    expect((await readFile(join(dataDir, 'service-secret'), 'utf8')).trim()).toMatch(
      /^[0-9a-f]{64}$/,
    );
    expect(await readdir(dataDir)).toEqual(['service-secret']);
  });

  it('keeps the secret across restarts and derives different keys per purpose', async () => {
    const config = { HALLMARK_DATA_DIR: dataDir, HALLMARK_SECRET: undefined };
    const before = await loadServiceKeys(config);
    const after = await loadServiceKeys(config);
    expect(after.linkSigning).toEqual(before.linkSigning);
    expect(after.linkSigning).not.toEqual(after.accessTokens);
  });

  it('uses HALLMARK_SECRET when set and writes nothing', async () => {
    const config = { HALLMARK_DATA_DIR: dataDir, HALLMARK_SECRET: 'x'.repeat(40) };
    const one = await loadServiceKeys(config);
    const other = await loadServiceKeys({ ...config, HALLMARK_SECRET: 'y'.repeat(40) });
    expect(one.accessTokens).not.toEqual(other.accessTokens);
    expect(await readdir(dataDir)).toEqual([]);
  });
});

/** Polls a condition (the test's own timeout bounds it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}
