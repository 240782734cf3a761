// The README's first command, walked as a new user does on this clone: `./dev start` from cold
// (install, build, migrate, start), stopped with Ctrl-C, then started again warm. It times both
// to the "Hallmark is ready" line and fails when that line comes before either server takes a
// request, when a start fails, or when a Ctrl-C does not end it cleanly. The times are printed,
// not judged: a loaded machine is slow, not wrong (README.md has figures measured this way).
//
// Own database, Redis prefix, data folder and ports: it touches nothing of a real deployment.
// Node built-ins only, because it runs before the dependencies are installed.
//
//   node scripts/first-start-walk.ts [--warm-only]
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
/** Only against a hang: a cold start on a loaded two-core machine takes many minutes. */
const HANG_MS = 30 * 60_000;
const TARGETS = { cold: 120, warm: 20 } as const;

interface Start {
  readonly seconds: number;
  readonly output: string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Whether something answers HTTP at `url` right now: one try, no waiting for a socket. */
async function answers(url: string): Promise<string> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
    return response.ok ? 'ok' : `answered ${response.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return `no answer (${cause ?? (error as Error).message})`;
  }
}

/** `./dev start` until its ready line, which is checked against both servers at once. */
async function start(
  name: string,
  env: NodeJS.ProcessEnv,
  urls: readonly string[],
): Promise<Start> {
  console.log(`first-start walk: ./dev start, ${name}…`);
  const began = performance.now();
  // Its own process group, as a terminal's foreground job: the Ctrl-C reaches every process.
  const child = spawn(join(root, 'dev'), ['start'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  /** Where the time went: each step line of ./dev and `pnpm start`, with when it came. */
  const steps: string[] = [];
  const ready = new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      for (const line of text.split('\n')) {
        if (/^(dev|start): /.test(line)) {
          const at = ((performance.now() - began) / 1000).toFixed(1).padStart(6);
          steps.push(`  ${at} s  ${line.slice(0, 110)}`);
        }
      }
      output += text;
      if (output.includes('Hallmark is ready')) resolve(performance.now());
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) =>
      reject(
        new Error(`./dev start ended (${code}) before it was ready:\n${output.slice(-3_000)}`),
      ),
    );
    setTimeout(
      () => reject(new Error(`no ready line in ${HANG_MS / 60_000} min`)),
      HANG_MS,
    ).unref();
  });
  try {
    const readyAt = await ready;
    const states = await Promise.all(urls.map(answers));
    const refused = urls.filter((_, i) => states[i] !== 'ok');
    if (refused.length > 0) {
      throw new Error(
        `"Hallmark is ready" came before ${refused.map((url, i) => `${url}: ${states[i]}`).join('; ')}`,
      );
    }
    const seconds = (readyAt - began) / 1000;
    console.log(steps.join('\n'));
    console.log(
      `first-start walk: ready in ${seconds.toFixed(0)} s, both servers answering; Ctrl-C…`,
    );
    await stop(child);
    return { seconds, output };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-(child.pid as number), 'SIGKILL');
    }
  }
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  process.kill(-(child.pid as number), 'SIGINT');
  const [code, signal] = await exited;
  if (code !== 0) throw new Error(`a Ctrl-C ended ./dev start with ${code ?? signal}, not 0`);
}

const database = `hallmark_walk_${randomBytes(5).toString('hex')}`;
const redisPrefix = `hallmark-walk-${randomBytes(5).toString('hex')}`;
const dataDir = await mkdtemp(join(tmpdir(), 'hallmark-walk-'));
const [port, adminPort] = [await freePort(), await freePort()];
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: `postgresql://postgres@127.0.0.1:5432/${database}`,
  REDIS_PREFIX: redisPrefix,
  HALLMARK_DATA_DIR: dataDir,
  PORT: String(port),
  ADMIN_PORT: String(adminPort),
};
const urls = [`http://127.0.0.1:${port}/health`, `http://127.0.0.1:${adminPort}/sign-in`];

let failed = false;
try {
  const cold = process.argv.includes('--warm-only') ? undefined : await start('cold', env, urls);
  const warm = await start('warm', env, urls);
  console.log('\n| start | to "Hallmark is ready" | target |');
  console.log('|---|---|---|');
  for (const [name, run] of [
    ['cold (fresh clone: install, build, migrate)', cold],
    ['warm (everything built)', warm],
  ] as const) {
    if (run === undefined) continue;
    const target = name.startsWith('cold') ? TARGETS.cold : TARGETS.warm;
    const verdict = run.seconds <= target ? 'met' : 'over';
    console.log(`| ${name} | ${run.seconds.toFixed(0)} s | <= ${target} s (${verdict}) |`);
  }
  console.log('Both servers answered the moment each ready line appeared.');
} catch (error) {
  failed = true;
  console.error(`first-start walk: ${(error as Error).message}`);
} finally {
  try {
    execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', database]);
    const keys = execFileSync('redis-cli', ['--scan', '--pattern', `${redisPrefix}*`])
      .toString()
      .split('\n')
      .filter(Boolean);
    if (keys.length > 0) execFileSync('redis-cli', ['del', ...keys]);
  } catch (error) {
    console.error(`first-start walk: clean-up left something: ${(error as Error).message}`);
  }
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
