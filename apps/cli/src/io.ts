/** What a command may touch of the outside world; tests pass their own. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** True when stderr is a terminal: progress may then redraw one line instead of adding lines. */
  readonly stderrIsTty?: boolean;
}

/** A command's result is its exit code: 0 success, 1 a negative answer, 2 bad usage. */
export type Command = (args: string[], io: CliIo) => Promise<number>;

export class UsageError extends Error {
  override name = 'UsageError';
}
