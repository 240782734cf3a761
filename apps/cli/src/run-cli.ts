import { admins, adminsUsage } from './commands/admins.ts';
import { detect, detectUsage } from './commands/detect.ts';
import { inspect, inspectUsage } from './commands/inspect.ts';
import { keyRequests, keyRequestsUsage } from './commands/key-requests.ts';
import { keys, keysUsage } from './commands/keys.ts';
import { mark, markUsage } from './commands/mark.ts';
import { ready, readyUsage } from './commands/ready.ts';
import { sign, signUsage } from './commands/sign.ts';
import { verify, verifyUsage } from './commands/verify.ts';
import { watermark, watermarkUsage } from './commands/watermark.ts';
import { type CliIo, type Command, UsageError } from './io.ts';
import { version } from './version.ts';

const commands: Record<string, { run: Command; usage: string }> = {
  keys: { run: keys, usage: keysUsage },
  'key-requests': { run: keyRequests, usage: keyRequestsUsage },
  admins: { run: admins, usage: adminsUsage },
  ready: { run: ready, usage: readyUsage },
  watermark: { run: watermark, usage: watermarkUsage },
  verify: { run: verify, usage: verifyUsage },
  sign: { run: sign, usage: signUsage },
  inspect: { run: inspect, usage: inspectUsage },
  mark: { run: mark, usage: markUsage },
  detect: { run: detect, usage: detectUsage },
};

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
    return await command.run(rest, io);
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
