// `pnpm start`: one command from a fresh clone to a running service with embedded defaults.
// 1. read .env when present and validate the environment (before anything slow happens);
// 2. name any unreachable PostgreSQL or Redis, with the command that starts it;
// 3. build what is stale (turbo cache; `pnpm start --no-build` skips this when the packages are
//    built already, e.g. by a test run whose other tests read the build output meanwhile), create
//    the database if missing, apply migrations;
// 4. make sure a development API key exists (printed once when created);
// 5. unless CHAIN_RPC_URL names a real chain, run a local anvil chain with the NFT contract;
// 6. run api, worker and the admin console together with labelled logs, and say they are ready,
//    with the addresses and this start's one-time secrets, once each answers HTTP.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ConfigError, loadConfig } from '@hallmark/config';
import { browsable } from './start/browsable.ts';
import { runTogether } from './start/processes.ts';
import { findUnreachable } from './start/reachability.ts';
import { framed, untilAnswering } from './start/ready.ts';

const root = join(import.meta.dirname, '..');
const envFile = join(root, '.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(78);
}

const unreachable = await findUnreachable(config.DATABASE_URL, config.REDIS_URL);
if (unreachable.length > 0) {
  console.error(unreachable.join('\n\n'));
  process.exit(69);
}

if (!process.argv.includes('--no-build')) await buildStale();

// Imported only now: @hallmark/db runs from its build output.
const {
  applyMigrations,
  createPrismaClient,
  ensureDatabase,
  ensureDevApiKey,
  ensureDevOperator,
  MalformedApiKeyError,
} = await import('@hallmark/db');
await ensureDatabase(config.DATABASE_URL);
const applied = await applyMigrations(config.DATABASE_URL);
console.error(
  applied.length > 0
    ? `start: applied migrations ${applied.join(', ')}`
    : 'start: database up to date',
);

// What the summary repeats once the servers answer: the secrets shown only on this start.
const secrets: string[] = [];
const prisma = createPrismaClient(config.DATABASE_URL);
try {
  const devKey = await ensureDevApiKey(prisma, {
    name: 'development',
    plaintext: process.env.HALLMARK_DEV_API_KEY || undefined,
  });
  if (devKey.plaintext !== undefined) {
    secrets.push(`API key          ${devKey.plaintext}   (shown once; only its hash is kept)`);
    console.error(
      `\nstart: created a development API key. It is shown once, keep it:\n\n  ${devKey.plaintext}\n\n` +
        'Set HALLMARK_DEV_API_KEY to pin your own key instead.\n',
    );
  } else {
    console.error(`start: development API key ${devKey.prefix}… is ready`);
    secrets.push(`API key          ${devKey.prefix}… (made on an earlier start)`);
  }
  const operator = await ensureDevOperator(prisma);
  secrets.push(
    operator.password === undefined
      ? `Console sign-in  ${operator.email} (password given on an earlier start)`
      : `Console sign-in  ${operator.email} / ${operator.password}   (shown once)`,
  );
  console.error(
    operator.password === undefined
      ? `start: operators exist (e.g. ${operator.email}); \`pnpm hallmark admins create\` adds one`
      : `\nstart: created the operator ${operator.email} (admin) for the admin API. Its password is shown once:\n\n  ${operator.password}\n`,
  );
} catch (error) {
  if (!(error instanceof MalformedApiKeyError)) throw error;
  console.error(error.message);
  process.exit(78);
} finally {
  await prisma.$disconnect();
}

// The local chain belongs to this process, not to the worker: restarting a worker must not take
// the chain (and its tokens) with it. Its state is kept in the data folder across starts.
const childEnv: NodeJS.ProcessEnv = { ...process.env };
let stopChain = async () => {};
if (config.CHAIN_RPC_URL === undefined) {
  const { ensureDevChain } = await import('@hallmark/chain');
  const chain = await ensureDevChain({ directory: join(config.HALLMARK_DATA_DIR, 'chain') });
  if (chain.stateNotice !== undefined) console.error(`start: ${chain.stateNotice}`);
  console.error(
    `start: local chain ${chain.options.rpcUrl} (id ${chain.options.chainId}), NFT contract ${chain.options.contractAddress}`,
  );
  Object.assign(childEnv, {
    CHAIN_RPC_URL: chain.options.rpcUrl,
    CHAIN_ID: String(chain.options.chainId),
    CHAIN_CONTRACT_ADDRESS: chain.options.contractAddress,
    CHAIN_MINTER_KEY: chain.options.minterKey,
  });
  stopChain = () => chain.stop();
}

// The console's server reaches the API directly (it is the API's client, never a browser's).
childEnv.ADMIN_API_URL =
  config.ADMIN_API_URL ??
  (config.ADMIN_API_PORT === undefined
    ? `http://${browsable(config.HOST)}:${config.PORT}`
    : `http://${browsable(config.ADMIN_API_HOST)}:${config.ADMIN_API_PORT}`);
// ...and the API's key request mail links the console's status page.
childEnv.ADMIN_PUBLIC_URL =
  config.ADMIN_PUBLIC_URL ?? `http://${browsable(config.HOST)}:${config.ADMIN_PORT}`;
const apiUrl = `http://${browsable(config.HOST)}:${config.PORT}`;
const consoleUrl = `http://${browsable(config.HOST)}:${config.ADMIN_PORT}`;
console.error('start: starting api, worker and the admin console…');
// The minter's key is the worker's alone: the api and the console, which parse what strangers
// send, are started without it.
const { CHAIN_MINTER_KEY, ...withoutMinterKey } = childEnv;
const running = runTogether(
  [
    { label: 'api', entry: join(root, 'apps/api/dist/main.js') },
    { label: 'worker', entry: join(root, 'apps/worker/dist/main.js'), env: childEnv },
    { label: 'admin', entry: join(root, 'apps/admin/server.ts') },
  ],
  withoutMinterKey,
);
const answering = await Promise.all([
  untilAnswering(`${apiUrl}/health`, running),
  untilAnswering(`${consoleUrl}/sign-in`, running),
]);
if (answering.every(Boolean)) {
  console.error(
    `\n${framed([
      'Hallmark is ready',
      '',
      `API              ${apiUrl}   (reference: ${apiUrl}/docs)`,
      `Admin console    ${consoleUrl}`,
      ...secrets,
      `Data             ${config.HALLMARK_DATA_DIR} (files, IPFS blocks, local chain, dev identity)`,
      'Stop             Ctrl-C',
    ])}\n`,
  );
}
const code = await running;
await stopChain();
process.exit(code);

/**
 * Builds what the three processes run, through turbo's cache, naming each package it has to build
 * as it starts (a first build takes minutes); exits on a failed build.
 */
async function buildStale(): Promise<void> {
  console.error(
    'start: building what changed (cached when nothing did; a first build takes minutes)…',
  );
  const build = spawn(
    join(root, 'node_modules/.bin/turbo'),
    [
      'run',
      'build',
      '--filter=@hallmark/api...',
      '--filter=@hallmark/worker...',
      '--filter=@hallmark/admin...',
      '--output-logs=hash-only',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  build.once('error', (error) => {
    console.error(`start: could not run turbo (${error.message}); run \`./dev start\``);
    process.exit(1);
  });
  const output: string[] = [];
  let total = 0;
  let begun = 0;
  createInterface({ input: build.stdout }).on('line', (line) => {
    output.push(line);
    total = Number(/Running build in (\d+) packages/.exec(line)?.[1] ?? total);
    const task = /^(\S+):build: cache (?:miss|bypass)/.exec(line)?.[1];
    if (task !== undefined) {
      begun += 1;
      console.error(`start: building ${task} (${begun} to build of ${total} packages)…`);
    }
  });
  createInterface({ input: build.stderr }).on('line', (line) => output.push(line));
  const [code] = (await once(build, 'close')) as [number | null];
  if (code !== 0) {
    // Turbo's lines are noise when all is well; on failure they are the explanation.
    process.stderr.write(`${output.join('\n')}\n`);
    process.exit(code ?? 1);
  }
}
