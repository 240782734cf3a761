import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** `@foundry-rs/anvil` ships one optional package per platform, each holding `bin/anvil`. */
const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
};

/**
 * Path of the anvil executable. The package's own `anvil` bin is a Node wrapper that would sit
 * between us and the node, so a kill would stop the wrapper and could leave anvil running; the
 * binary is resolved here instead, from the wrapper package's point of view (pnpm only links the
 * platform package inside it).
 */
export function anvilBinaryPath(): string {
  const platformPackage = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (!platformPackage) {
    throw new Error(`anvil has no npm build for ${process.platform}-${process.arch}`);
  }
  const wrapper = require.resolve('@foundry-rs/anvil/package.json');
  let packageJson: string;
  try {
    packageJson = createRequire(wrapper).resolve(`${platformPackage}/package.json`);
  } catch {
    throw new Error(
      `${platformPackage} is not installed (an optional dependency of @foundry-rs/anvil)`,
    );
  }
  const binary = join(
    dirname(packageJson),
    'bin',
    process.platform === 'win32' ? 'anvil.exe' : 'anvil',
  );
  if (!existsSync(binary)) throw new Error(`${platformPackage} has no binary at ${binary}`);
  return binary;
}

/**
 * On Linux, `setpriv --pdeathsig` (util-linux) makes the kernel send SIGTERM to anvil when the
 * process that started it dies, even by SIGKILL, so a crashed parent leaves no node behind. It
 * execs anvil, so the child's pid is anvil's own.
 */
const SETPRIV_CANDIDATES = ['/usr/bin/setpriv', '/bin/setpriv'];

export function withParentDeathSignal(command: string, args: string[]): [string, string[]] {
  if (process.platform !== 'linux') return [command, args];
  const setpriv = SETPRIV_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!setpriv) return [command, args];
  return [setpriv, ['--pdeathsig', 'SIGTERM', '--', command, ...args]];
}
