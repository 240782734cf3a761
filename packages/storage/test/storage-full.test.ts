import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const entry = join(import.meta.dirname, '../src/index.ts');

/**
 * A full disk, for real: the child process runs under a file size limit (`ulimit -f`, in KiB),
 * so the kernel refuses its writes past it (EFBIG) as a full disk refuses them (ENOSPC).
 */
async function underFileSizeLimit(root: string, script: string): Promise<unknown> {
  const program = `
    import { LinkSigner, LocalStorage } from ${JSON.stringify(entry)};
    const storage = new LocalStorage({
      root: ${JSON.stringify(root)},
      baseUrl: 'http://127.0.0.1:3000',
      signer: new LinkSigner(new Uint8Array(32).fill(1)),
    });
    try {
      ${script}
      console.log(JSON.stringify({ ok: true }));
    } catch (error) {
      console.log(JSON.stringify({ name: error.name, code: error.code, cause: error.cause?.code }));
    }`;
  const { stdout } = await run('sh', [
    '-c',
    `ulimit -f 64 && exec "${process.execPath}" --input-type=module -e "$0"`,
    program,
  ]);
  return JSON.parse(stdout);
}

describe('a full disk', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'hallmark-full-'));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('write: StorageFullError (storage_full) and no temporary file left behind', async () => {
    const result = await underFileSizeLimit(
      root,
      `await storage.write('outputs/j/1/photo.jpg', new Uint8Array(200 * 1024), 'image/jpeg');`,
    );
    expect(result).toEqual({ name: 'StorageFullError', code: 'storage_full', cause: 'EFBIG' });
    const left = await readdir(root, { recursive: true, withFileTypes: true });
    expect(left.filter((e) => e.isFile()).map((e) => e.name)).toEqual([]);
  });

  it('receive: StorageFullError and no partial upload left behind', async () => {
    const result = await underFileSizeLimit(
      root,
      `async function* body() { for (let i = 0; i < 50; i++) yield new Uint8Array(8 * 1024); }
       await storage.receive('uploads/f/photo.jpg', body(), 10 * 1024 * 1024);`,
    );
    expect(result).toMatchObject({ name: 'StorageFullError', code: 'storage_full' });
    const left = await readdir(root, { recursive: true, withFileTypes: true });
    expect(left.filter((e) => e.isFile()).map((e) => e.name)).toEqual([]);
  });

  it('within the limit, the same write succeeds (the limit is what failed it)', async () => {
    const result = await underFileSizeLimit(
      root,
      `await storage.write('outputs/j/1/photo.jpg', new Uint8Array(10 * 1024), 'image/jpeg');`,
    );
    expect(result).toEqual({ ok: true });
  });
});
