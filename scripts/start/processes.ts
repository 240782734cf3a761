// Runs api and worker side by side in one terminal, each output line labelled with its process,
// and stops both when either ends or when the terminal asks to stop.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

interface Service {
  label: string;
  entry: string;
  /** Its environment (the shared one when absent). */
  env?: NodeJS.ProcessEnv;
}

function pipeLabelled(child: ChildProcess, label: string): void {
  for (const [stream, target] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    if (stream === null) continue;
    createInterface({ input: stream }).on('line', (line) => target.write(`${label} | ${line}\n`));
  }
}

export function runTogether(services: readonly Service[], env: NodeJS.ProcessEnv): Promise<number> {
  const width = Math.max(...services.map((s) => s.label.length));
  const children = services.map((service) => {
    const child = spawn(process.execPath, [service.entry], {
      env: service.env ?? env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    pipeLabelled(child, service.label.padEnd(width));
    return child;
  });

  let stopping = false;
  const stopAll = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const child of children) if (child.exitCode === null) child.kill(signal);
  };
  // `on`, not `once`: a Ctrl-C reaches this process twice (from the terminal's process group and
  // again from pnpm, which forwards it), and the second must not kill it by default action, or
  // `pnpm start` would exit 130 instead of the 0 of a clean stop.
  process.on('SIGINT', () => stopAll('SIGTERM'));
  process.on('SIGTERM', () => stopAll('SIGTERM'));

  return new Promise((resolve) => {
    let closed = 0;
    let firstCode: number | null = null;
    children.forEach((child, index) => {
      child.once('exit', (code, signal) => {
        const label = services[index]?.label ?? '?';
        if (!stopping) {
          process.stderr.write(`${label} exited (${code ?? signal}); stopping the others\n`);
          firstCode = code ?? 1;
          stopAll('SIGTERM');
        }
      });
      // Done once its output is read to the end too: 'exit' can come while the pipe still holds
      // its last lines (the API's "stopped", written by a cluster worker sharing the pipe), which
      // the exit of this process would then drop.
      child.once('close', () => {
        closed += 1;
        if (closed === children.length) resolve(firstCode ?? 0);
      });
    });
  });
}
