import type { CliIo } from '../../src/io.ts';

/** An io for runCli that keeps what a command prints, each stream as one string. */
export function capture(env: NodeJS.ProcessEnv = {}, stderrIsTty = false) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    env,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    stderrIsTty,
  };
  return { io, out: () => out.join(''), err: () => err.join('') };
}
