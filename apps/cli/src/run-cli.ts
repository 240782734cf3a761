import { commands } from './commands.ts';
import { type CliIo, UsageError } from './io.ts';
import { version } from './version.ts';

function help(): string {
  return [
    `hallmark ${version}: content provenance from the command line`,
    '',
    'Usage:',
    ...Object.values(commands).map((c) => `  ${c.usage}`),
    '  hallmark --version',
    '',
    "Environment (the process's, over the nearest .env from the current folder upwards):",
    '  HALLMARK_URL      the API (default: PUBLIC_URL, else http://HOST:PORT as `pnpm start` serves)',
    '  HALLMARK_API_KEY  the key for watermark and verify',
    '  DATABASE_URL      keys, key-requests: the database (named on stderr)',
    '  HALLMARK_DATA_DIR sign, inspect: the development signing identity (default .data)',
    '',
  ].join('\n');
}

/** Whether `argv` runs a command (which reads the environment), rather than help or version. */
export function runsCommand(argv: string[]): boolean {
  return argv[0] !== undefined && Object.hasOwn(commands, argv[0]);
}

/** Runs one command line and returns its exit code; never throws. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(help());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${version}\n`);
    return 0;
  }
  const command = commands[name];
  if (command === undefined) {
    io.stderr(`hallmark: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  try {
    const run = await command.load();
    return await run(rest, io);
  } catch (error) {
    const usage =
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    io.stderr(`hallmark ${name}: ${describe(error)}\n`);
    if (usage) io.stderr(`usage: ${command.usage}\n`);
    return usage ? 2 : 1;
  }
}

/** fetch reports "fetch failed" and hides the reason (refused, DNS, TLS) in `cause`. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
