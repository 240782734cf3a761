// Debian's ffmpeg and ffprobe as child processes: the video mark only ever sees raw frames piped
// over stdin/stdout, so no codec runs in this process and no npm wrapper downloads a binary.

import { type ChildProcess, spawn } from 'node:child_process';

/** Where ffmpeg and ffprobe are: the service's settings name them (docs/configuration.md). */
export interface VideoTools {
  readonly ffmpeg: string;
  readonly ffprobe: string;
}

/** Debian's packages, which scripts/ensure-test-packages.sh installs: the default everywhere. */
export const DEBIAN_VIDEO_TOOLS: VideoTools = Object.freeze({
  ffmpeg: '/usr/bin/ffmpeg',
  ffprobe: '/usr/bin/ffprobe',
});

/** Which of a pipeline's processes failed: the decoder (the file) or the encoder (the tools). */
export type FfmpegStage = 'decode' | 'encode';

/** ffmpeg or ffprobe failed: the message ends with the tail of its stderr. */
export class FfmpegError extends Error {
  override readonly name = 'FfmpegError';
  /** Set for a process of a pipeline that was told its stage. */
  readonly stage: FfmpegStage | undefined;

  constructor(message: string, options: ErrorOptions & { readonly stage?: FfmpegStage } = {}) {
    super(message, options);
    this.stage = options.stage;
  }
}

/** Keeps only the end of stderr: the error is there, and a long run's log would fill memory. */
const STDERR_TAIL = 4_000;

export interface RunningProcess {
  readonly child: ChildProcess;
  /** Resolves when the process exits with status 0, rejects with FfmpegError otherwise. */
  readonly done: Promise<void>;
}

/**
 * Waits for every process and rejects with the failure that explains the others: the first
 * process to fail by itself (an encoder refusing its settings), not one that failed after it (a
 * decoder whose pipe then broke) or was stopped because of it. `onFailure` runs at each failure
 * as it happens (to stop the rest).
 */
export async function allDone(
  processes: readonly RunningProcess[],
  onFailure: () => void,
): Promise<void> {
  const failures: unknown[] = [];
  await Promise.all(
    processes.map((running) =>
      running.done.catch((failure: unknown) => {
        failures.push(failure);
        onFailure();
      }),
    ),
  );
  if (failures.length === 0) return;
  const stopped = (failure: unknown) =>
    failure instanceof Error && (failure.cause as Error | undefined)?.name === 'AbortError';
  throw failures.find((failure) => !stopped(failure)) ?? failures[0];
}

/**
 * Starts `binary` with `args`; stdin and stdout are pipes when asked for, stderr is kept (its
 * tail) for the error. The abort signal kills the process, and `done` then rejects.
 */
export function startProcess(
  binary: string,
  args: readonly string[],
  options: {
    readonly signal?: AbortSignal;
    readonly stdin?: boolean;
    readonly stdout?: boolean;
    /** Named in the process's FfmpegError. */
    readonly stage?: FfmpegStage;
  },
): RunningProcess {
  const stage = options.stage === undefined ? {} : { stage: options.stage };
  const child = spawn(binary, args, {
    stdio: [options.stdin ? 'pipe' : 'ignore', options.stdout ? 'pipe' : 'ignore', 'pipe'],
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    stderr = (stderr + text).slice(-STDERR_TAIL);
  });
  const done = new Promise<void>((resolve, reject) => {
    let aborted: Error | undefined;
    child.once('error', (error) => {
      // An abort kills the process; its exit (below) tells whether it had failed by itself
      // first, and then its own error is the one to report.
      if (error.name === 'AbortError') aborted = error;
      else {
        reject(
          new FfmpegError(`${binary} could not run: ${error.message}`, { cause: error, ...stage }),
        );
      }
    });
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else if (code === null && aborted !== undefined) {
        reject(
          new FfmpegError(`${binary} was stopped: ${aborted.message}`, {
            cause: aborted,
            ...stage,
          }),
        );
      } else {
        reject(
          new FfmpegError(
            `${binary} exited with ${code ?? signal}: ${stderr.trim().slice(-800)}`,
            stage,
          ),
        );
      }
    });
  });
  return { child, done };
}

/** Runs ffmpeg to completion with its stdin closed and its output written by itself. */
export async function runFfmpeg(args: readonly string[], signal?: AbortSignal): Promise<void> {
  const options = signal === undefined ? {} : { signal };
  await startProcess(
    DEBIAN_VIDEO_TOOLS.ffmpeg,
    ['-hide_banner', '-nostdin', '-v', 'error', ...args],
    options,
  ).done;
}

/** Runs a binary to completion and returns its stdout as text (ffprobe's JSON, a filter's log). */
export async function runForOutput(
  binary: string,
  args: readonly string[],
  signal?: AbortSignal,
): Promise<string> {
  const running = startProcess(binary, args, { stdout: true, ...(signal ? { signal } : {}) });
  const chunks: Buffer[] = [];
  running.child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
  await running.done;
  return Buffer.concat(chunks).toString('utf8');
}
