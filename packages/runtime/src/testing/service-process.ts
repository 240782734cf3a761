import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { HANG_MS } from './wait-for.ts';

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** The `msg` of every JSON log line so far. */
  readonly messages: readonly string[];
  /** Resolves once a log line with this `msg` appeared (rejects if the process exits first). */
  logged(msg: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  /**
   * Stops reading the log: later lines are drained unread, and `logged` sees none of them. For a
   * benchmark whose load generator runs in this process: parsing the service's access log (one
   * JSON line per request) would cost it a good part of its own work.
   */
  unfollow(): void;
  /** Sends the signal and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts a built Hallmark process (api or worker `dist/main.js`) as a real child process with
 * the given environment and follows its JSON log lines, for tests that need real processes.
 */
export interface ServiceProcessOptions {
  /**
   * Runs the process under a file size limit (`ulimit -f`, KiB): the kernel then refuses its
   * writes past it (EFBIG), as a full disk refuses them (ENOSPC).
   */
  readonly fileSizeLimitKb?: number;
  /**
   * Runs the process on these CPUs only (`taskset -c`, e.g. `"1"` or `"0,1"`): a benchmark gives
   * a process a core of its own, and the process sizes itself (`availableParallelism`) to it.
   */
  readonly cpus?: string;
}

/**
 * Children still running. A test that times out never reaches its `finally`, so whatever it
 * started is killed when the test process exits instead of outliving the run.
 */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function startServiceProcess(
  entry: string,
  env: Record<string, string>,
  options: ServiceProcessOptions = {},
): ServiceProcess {
  const limit =
    options.fileSizeLimitKb === undefined ? '' : `ulimit -f ${options.fileSizeLimitKb} && `;
  const pin = options.cpus === undefined ? '' : `taskset -c ${options.cpus} `;
  const [command, args] =
    limit === '' && pin === ''
      ? [process.execPath, [entry]]
      : // `exec` (and taskset's own exec): the child is node itself, so signals reach it.
        ['sh', ['-c', `${limit}exec ${pin}"$0" "$1"`, process.execPath, entry]];
  const child = spawn(command, args, {
    // Tests follow the process by its log lines, so it must log whatever the test env says.
    env: { ...process.env, ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const messages: string[] = [];
  const lines: Record<string, unknown>[] = [];
  /** The last lines, for errors that explain why a process died. */
  const tail = () => `stderr: ${stderr.trim()}; last log lines: ${JSON.stringify(lines.slice(-3))}`;
  const waiters = new Set<() => void>();
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = `${stderr}${chunk.toString()}`.slice(-4_000);
  });
  const follower = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  follower.on('line', (line) => {
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      lines.push(entry);
      messages.push(String(entry.msg));
    } catch {
      messages.push(line);
    }
    for (const wake of waiters) wake();
  });
  running.add(child);
  // 'close', not 'exit': it comes after the output pipes have ended, so every line is read.
  const exited = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
  child.once('exit', () => running.delete(child));

  return {
    child,
    messages,
    logged(msg, timeoutMs = HANG_MS) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find((line) => line.msg === msg);
          if (found === undefined) return false;
          cleanup();
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no "${msg}" log line within ${timeoutMs} ms; ${tail()}`));
        }, timeoutMs);
        const onExit = () => {
          cleanup();
          reject(new Error(`process exited before logging "${msg}"; ${tail()}`));
        };
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(wake);
          child.off('close', onExit);
        };
        const wake = () => {
          check();
        };
        if (check()) return;
        waiters.add(wake);
        child.once('close', onExit);
      });
    },
    unfollow() {
      follower.close();
      // Closing pauses the pipe; unread, it would fill and stall the process's log writes.
      child.stdout?.resume();
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const [code] = await exited;
      return code;
    },
  };
}
