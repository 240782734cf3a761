// Videos and recordings are read and signed through local files; each run works in a folder of
// its own under the data folder, removed when the run ends whatever happens.
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { HallmarkConfig } from '@hallmark/config';

/** The root of the runs' scratch folders. */
export function scratchRoot(config: Pick<HallmarkConfig, 'HALLMARK_DATA_DIR'>): string {
  return resolve(config.HALLMARK_DATA_DIR, 'tmp', 'media');
}

/** Runs `work` in a new folder under `root`, removed afterwards. */
export async function inScratchFolder<T>(
  root: string,
  work: (folder: string) => Promise<T>,
): Promise<T> {
  await mkdir(root, { recursive: true });
  const folder = await mkdtemp(join(root, 'run-'));
  try {
    return await work(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * Removes run folders under `root` last changed before `olderThan`: a worker that died mid-run
 * leaves its folder behind (a video twice over). Returns how many went.
 */
export async function removeStaleScratch(root: string, olderThan: Date): Promise<number> {
  const entries = await readdir(root, { withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    },
  );
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith('run-')) continue;
    const folder = join(root, entry.name);
    const changed = await stat(folder).then(
      (stats) => stats.mtime,
      () => null,
    );
    if (changed === null || changed >= olderThan) continue;
    await rm(folder, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
