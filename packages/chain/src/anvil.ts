import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Address, getAddress, type Hex } from 'viem';
import { anvilBinaryPath, withParentDeathSignal } from './anvil-binary.ts';

export interface AnvilOptions {
  /** Default: a free port chosen by the system. */
  port?: number;
  /** Default 31337. */
  chainId?: number;
  /**
   * Persist the chain here: loaded at start if it exists, written on a clean stop and every
   * `stateIntervalSeconds` (so a killed node loses at most that much). Default: in memory only.
   */
  stateFile?: string;
  /** Default 1. */
  stateIntervalSeconds?: number;
  /** Default: the binary from `@foundry-rs/anvil`. */
  binary?: string;
  /**
   * How long to wait for the node to answer: a bound for a hang (anvil answers in well under a
   * second, but a loaded machine can be many times slower). Default 120 s.
   */
  readyTimeoutMs?: number;
}

export interface DevAccount {
  address: Address;
  privateKey: Hex;
}

export interface AnvilNode {
  rpcUrl: string;
  chainId: number;
  pid: number;
  /** anvil's funded development accounts (10 000 ETH each); #0 deploys and mints on the dev chain. */
  accounts: readonly DevAccount[];
  /** Stops the node (it writes its state file first) and waits until the process is gone. */
  stop(): Promise<void>;
}

const OUTPUT_LINES_KEPT = 40;
const STOP_GRACE_MS = 5_000;

/**
 * Nodes this process started and has not stopped. A parent that exits normally (or through
 * process.exit) takes them along; SIGTERM lets anvil write its state file on the way out.
 */
const runningNodes = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of runningNodes) child.kill('SIGTERM');
});

/** Starts anvil on 127.0.0.1 and resolves once it answers `eth_chainId`. */
export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilNode> {
  const chainId = options.chainId ?? 31337;
  const scratch = await mkdtemp(join(tmpdir(), 'hallmark-anvil-'));
  const configFile = join(scratch, 'config.json');
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(options.port ?? 0),
    '--chain-id',
    String(chainId),
    '--config-out',
    configFile,
    '--color',
    'never',
  ];
  if (options.stateFile) {
    args.push('--state', options.stateFile);
    args.push('--state-interval', String(options.stateIntervalSeconds ?? 1));
  }
  const [command, commandArgs] = withParentDeathSignal(options.binary ?? anvilBinaryPath(), args);
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = new OutputTail(child);
  runningNodes.add(child);

  const stop = async (): Promise<void> => {
    await terminate(child);
    runningNodes.delete(child);
    await rm(scratch, { recursive: true, force: true });
  };

  const readyTimeoutMs = options.readyTimeoutMs ?? 120_000;
  const deadline = Date.now() + readyTimeoutMs;
  try {
    const address = await withTimeout(
      output.listening,
      readyTimeoutMs,
      `no "Listening on" within ${readyTimeoutMs} ms`,
    );
    const rpcUrl = `http://${address}`;
    await waitForChainId(rpcUrl, chainId, deadline, child);
    const accounts = await readAccounts(configFile);
    if (child.pid === undefined) throw new Error('anvil has no pid');
    return { rpcUrl, chainId, pid: child.pid, accounts, stop };
  } catch (error) {
    await stop();
    throw new Error(`anvil did not start: ${(error as Error).message}\n${output.text()}`, {
      cause: error,
    });
  }
}

/**
 * Keeps the last lines anvil printed (for error messages) and keeps reading: anvil logs every
 * request, and an unread pipe would fill up and block it.
 */
class OutputTail {
  /** The `host:port` of anvil's "Listening on" line: the real port when port 0 was asked for. */
  readonly listening: Promise<string>;
  readonly #lines: string[] = [];
  #partial = '';

  constructor(child: ChildProcess) {
    this.listening = new Promise((resolve, reject) => {
      const onLine = (line: string) => {
        const match = /Listening on (\S+:\d+)/.exec(line);
        if (match?.[1]) resolve(match[1]);
      };
      for (const stream of [child.stdout, child.stderr]) {
        stream?.setEncoding('utf8');
        stream?.on('data', (chunk: string) => this.#append(chunk, onLine));
      }
      child.once('error', reject);
      child.once('exit', (code, signal) => reject(new Error(`anvil exited (${code ?? signal})`)));
    });
    // Nobody may be listening any more once the node is up; a late exit is not an error here.
    this.listening.catch(() => undefined);
  }

  text(): string {
    return this.#lines.join('\n');
  }

  #append(chunk: string, onLine: (line: string) => void): void {
    const lines = (this.#partial + chunk).split('\n');
    this.#partial = lines.pop() ?? '';
    for (const line of lines) {
      onLine(line);
      this.#lines.push(line);
    }
    this.#lines.splice(0, Math.max(0, this.#lines.length - OUTPUT_LINES_KEPT));
  }
}

async function waitForChainId(
  rpcUrl: string,
  expected: number,
  deadline: number,
  child: ChildProcess,
): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited (${child.exitCode})`);
    const answer = await askChainId(rpcUrl);
    if (answer !== undefined) {
      if (answer !== expected) throw new Error(`anvil reports chain ${answer}, not ${expected}`);
      return;
    }
    if (Date.now() > deadline) throw new Error('no answer to eth_chainId');
    await sleep(50);
  }
}

async function askChainId(rpcUrl: string): Promise<number | undefined> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    const { result } = (await response.json()) as { result?: string };
    return result === undefined ? undefined : Number(result);
  } catch {
    return undefined;
  }
}

async function readAccounts(configFile: string): Promise<DevAccount[]> {
  const config = JSON.parse(await readFile(configFile, 'utf8')) as {
    available_accounts: string[];
    private_keys: Hex[];
  };
  return config.available_accounts.map((address, index) => {
    const privateKey = config.private_keys[index];
    if (!privateKey) throw new Error(`anvil's config has no key for account ${index}`);
    return { address: getAddress(address), privateKey };
  });
}

/** SIGTERM (anvil then writes its state), SIGKILL after a grace period; resolves once it is gone. */
async function terminate(child: ChildProcess): Promise<void> {
  // No pid: the spawn itself failed (e.g. a missing binary), so there is nothing to wait for.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  try {
    await withTimeout(exited, STOP_GRACE_MS, 'anvil ignored SIGTERM');
  } catch {
    child.kill('SIGKILL');
    await exited;
  }
}

/** Rejects after `ms`; the timer is cleared either way, so it never holds the process open. */
async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, expiry]);
  } finally {
    clearTimeout(timer);
  }
}
