import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
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
    // Real processes, as api and worker start side by side on a fresh machine, released at the
    // same instant once loaded: each prints the key it derived, or fails on a half-written secret.
    const startAt = Date.now() + 1_500;
    const script = `import { loadServiceKeys } from ${JSON.stringify(serviceKeysModule)};
      while (Date.now() < ${startAt}) {}
      const keys = await loadServiceKeys({ HALLMARK_DATA_DIR: process.argv[1] });
      console.log(Buffer.from(keys.accessTokens).toString('hex'));`;
    const outputs = await Promise.all(
      Array.from({ length: 6 }, () =>
        promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, dataDir]),
      ),
    );
    const printed = new Set(outputs.map((output) => output.stdout.trim()));
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
