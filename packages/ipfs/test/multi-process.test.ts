import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedIpfs, parseCid } from '../src/index.ts';
import { makeTempDir, type TempDir } from './support/temp-dir.ts';

const run = promisify(execFile);
const CHILD = join(import.meta.dirname, 'support', 'write-from-another-process.ts');

/** The worker writes and the API reads the same folder from two processes. */
describe('EmbeddedIpfs shared by two processes', () => {
  let dir: TempDir;
  let image: Buffer;
  let imagePath: string;

  beforeEach(async () => {
    dir = await makeTempDir();
    image = randomBytes(3 * 1024 * 1024 + 7); // four chunks, so several block files
    imagePath = join(dir.path, 'image.bin');
    await writeFile(imagePath, image);
  });

  afterEach(async () => {
    await dir.remove();
  });

  async function writeInChild(): Promise<{ json: string; dir: string }> {
    const { stdout } = await run(process.execPath, [CHILD, join(dir.path, 'ipfs'), imagePath]);
    return JSON.parse(stdout) as { json: string; dir: string };
  }

  it('a node that is already open reads what another process wrote', async () => {
    const reader = await EmbeddedIpfs.open(join(dir.path, 'ipfs'));
    try {
      const written = await writeInChild();
      expect(await reader.getJson(parseCid(written.json))).toMatchObject({ writtenBy: 'child' });
      const bytes = await reader.cat(parseCid(written.dir), 'shared.jpg');
      expect(Buffer.from(bytes).equals(image)).toBe(true);
    } finally {
      await reader.close();
    }
  });

  it('two processes writing the same file at once both succeed and agree', async () => {
    const here = await EmbeddedIpfs.open(join(dir.path, 'ipfs'));
    try {
      const [fromChild, fromHere] = await Promise.all([
        writeInChild(),
        here.addDirectory([{ name: 'shared.jpg', bytes: image }]),
      ]);
      expect(fromChild.dir).toBe(fromHere.cid.toString());
      const bytes = await here.cat(fromHere.cid, 'shared.jpg');
      expect(Buffer.from(bytes).equals(image)).toBe(true);
    } finally {
      await here.close();
    }
  });
});
