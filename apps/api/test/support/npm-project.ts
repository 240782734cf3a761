import { execFile } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// What the packaging tests share: a package packed as its publisher would, installed with plain
// npm into an empty project, in a user's shell.

const run = promisify(execFile);
// npm's cache outlives the run, and installs prefer it (prefer-offline: the registry is asked
// only for what the cache lacks), so only the first run on a machine depends on the registry's
// speed; a slow registry once held an install past every bound.
const npmCache = join(tmpdir(), 'hallmark-npm-cache');
/** A bound for a hang of a command that may download from the registry. */
export const COMMAND_HANG_MS = 600_000;

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A user's shell: this process's environment (proxy and CA settings included) without the
 * Hallmark variables of the test run and without what pnpm adds for scripts (npm_*).
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const own = /^(HALLMARK_|DATABASE_URL$|REDIS_|PORT$|HOST$|PUBLIC_URL$|npm_)/;
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !own.test(name)));
  return { ...env, npm_config_cache: npmCache, npm_config_prefer_offline: 'true', ...extra };
}

/** Runs a command to its end; a non-zero exit is a result, not an exception. */
export async function sh(
  command: string,
  args: readonly string[],
  cwd: string,
  env = userEnv(),
  hangMs = COMMAND_HANG_MS,
): Promise<CommandResult> {
  return run(command, args, {
    cwd,
    env,
    timeout: hangMs,
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof error.code === 'number' ? error.code : -1,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
}

/** Runs a command that must succeed, and throws with its stderr and stdout when it does not. */
export async function ok(
  command: string,
  args: readonly string[],
  cwd: string,
  env?: NodeJS.ProcessEnv,
): Promise<CommandResult> {
  const result = await sh(command, args, cwd, env);
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.code}:\n${result.stderr}\n${result.stdout}`,
    );
  }
  return result;
}

/**
 * `pnpm pack` of a workspace package into `folder`; returns the tarball's path. Its `prepack`
 * (a build) is skipped: the test run built every package before any test, and a rebuild here
 * would empty the `dist/` that test files running beside this one import.
 */
export async function packInto(packageFolder: string, folder: string): Promise<string> {
  await ok('pnpm', ['pack', '--pack-destination', folder], packageFolder, {
    ...process.env,
    npm_config_ignore_scripts: 'true',
  });
  const packed = (await readdir(folder)).find((name) => name.endsWith('.tgz'));
  if (packed === undefined) throw new Error(`pnpm pack wrote no tarball for ${packageFolder}`);
  return join(folder, packed);
}

/** An empty npm project with this manifest, ready for `npm install`. */
export async function emptyProject(
  folder: string,
  manifest: Record<string, unknown>,
): Promise<string> {
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
  return folder;
}

/** The names of a tarball's entries, sorted. */
export async function tarballEntries(tarball: string): Promise<string[]> {
  const { stdout } = await ok('tar', ['-tzf', tarball], tmpdir());
  return stdout.trim().split('\n').sort();
}
