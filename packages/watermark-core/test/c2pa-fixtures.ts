// Shared by the c2pa tests: committed photos, the third-party C2PA samples in fixtures/c2pa, a
// throwaway data folder with a development signer in it, and exiftool as an independent reader of
// the embedded manifest store.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { createSigner, type ManifestSigner } from '../src/c2pa/index.ts';

const repoRoot = join(import.meta.dirname, '../../..');

/** Real photos committed with the repository. */
export function photo(name: string): Promise<Buffer> {
  return readFile(join(repoRoot, 'fixtures/photos', name));
}

/** Third-party files from the C2PA reference implementation (copied into fixtures/c2pa with their source and licence). */
export const c2paFixtures = join(repoRoot, 'fixtures/c2pa');

export function c2paFixture(name: string): Promise<Buffer> {
  return readFile(join(c2paFixtures, name));
}

/** A temporary data folder removed by the returned cleanup. */
export async function temporaryDataDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'hallmark-c2pa-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A development signer in a throwaway data folder, made before the calling file's tests and
 * removed after them. Call it at the top level of a test file; read its fields inside tests.
 */
export function useDevelopmentSigner(): {
  readonly signer: ManifestSigner;
  readonly dataDir: string;
} {
  let made: { signer: ManifestSigner; dataDir: string; remove: () => Promise<void> } | undefined;
  beforeAll(async () => {
    const data = await temporaryDataDir();
    made = {
      signer: await createSigner({ kind: 'development', dataDir: data.dir }),
      dataDir: data.dir,
      remove: data.remove,
    };
  });
  afterAll(() => made?.remove());
  const ready = () => {
    if (made === undefined) throw new Error('the development signer is made in beforeAll');
    return made;
  };
  return {
    get signer() {
      return ready().signer;
    },
    get dataDir() {
      return ready().dataDir;
    },
  };
}

/**
 * Phil Harvey's ExifTool, the Perl script as npm ships it (exiftool-vendored.pl): an independent
 * reader that needs only the system's perl, not a Debian package.
 */
const exiftool = createRequire(import.meta.url).resolve('exiftool-vendored.pl/bin/exiftool');

/**
 * JUMBF description-box labels exiftool finds in a file: `c2pa` is the manifest store, then the
 * manifests' `urn:c2pa:...` labels and their boxes. ExifTool decodes JUMBF in JPEG
 * and PNG; from WebP it extracts the RIFF `C2PA` chunk as raw bytes, whose boxes are walked here.
 */
export async function exiftoolJumbfLabels(path: string): Promise<string[]> {
  const run = promisify(execFile);
  const decoded = await run('perl', [exiftool, '-a', '-s3', '-JUMBF:JUMDLabel', path]);
  const labels = decoded.stdout.split('\n').filter((line) => line !== '');
  if (labels.length > 0) return labels;
  const raw = await run('perl', [exiftool, '-u', '-b', '-RIFF:Unknown_C2PA', path], {
    encoding: 'buffer',
  });
  return jumbfLabels(raw.stdout);
}

/** Labels of every JUMBF description box (`jumd`: 16-byte type, toggles byte, label, NUL). */
function jumbfLabels(bytes: Buffer): string[] {
  const labels: string[] = [];
  for (let at = bytes.indexOf('jumd'); at !== -1; at = bytes.indexOf('jumd', at + 4)) {
    const start = at + 4 + 16 + 1;
    const end = bytes.indexOf(0, start);
    if (end > start) labels.push(bytes.subarray(start, end).toString('utf8'));
  }
  return labels;
}
