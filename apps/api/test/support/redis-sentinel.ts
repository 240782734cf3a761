import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '@hallmark/runtime/testing';
import { freePort } from './free-port.ts';
import { startRedisServer } from './redis-server.ts';

const run = promisify(execFile);

/** A primary, its replica and one Sentinel watching them: Debian's redis-server, on free ports. */
export interface SentinelSet {
  readonly name: string;
  readonly primaryPort: number;
  readonly replicaPort: number;
  readonly sentinelPort: number;
  /** The port the Sentinel names primary now. */
  primaryNow(): Promise<number>;
  /** Runs redis-cli against a port and returns its answer. */
  cli(port: number, ...args: string[]): Promise<string>;
  /** SIGKILLs the primary: the Sentinel promotes the replica within seconds. */
  killPrimary(): void;
  /** SIGKILLs the server on `port`, whatever its role now. */
  kill(port: number): void;
  /** Starts a server again on `port` as a replica of `primaryPort` (after a failover). */
  startReplica(port: number, primaryPort: number): void;
  stop(): Promise<void>;
}

export async function startSentinelSet(): Promise<SentinelSet> {
  const folder = await mkdtemp(join(tmpdir(), 'hallmark-sentinel-'));
  const [primaryPort, replicaPort, sentinelPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const name = 'hallmark-test';
  const children: ChildProcess[] = [];
  const servers = new Map<number, ChildProcess>();
  const server = (port: number, ...extra: string[]) => {
    const child = startRedisServer(port, folder, ...extra);
    children.push(child);
    servers.set(port, child);
    return child;
  };
  const cli = async (port: number, ...args: string[]) =>
    (await run('redis-cli', ['-p', String(port), ...args])).stdout.trim();
  server(primaryPort);
  server(replicaPort, '--replicaof', '127.0.0.1', String(primaryPort));
  const config = join(folder, 'sentinel.conf');
  await writeFile(
    config,
    [
      `port ${sentinelPort}`,
      'bind 127.0.0.1',
      `dir ${folder}`,
      `sentinel monitor ${name} 127.0.0.1 ${primaryPort} 1`,
      `sentinel down-after-milliseconds ${name} 1000`,
      `sentinel failover-timeout ${name} 5000`,
      `sentinel parallel-syncs ${name} 1`,
      '',
    ].join('\n'),
  );
  children.push(spawn('redis-server', [config, '--sentinel'], { stdio: 'ignore' }));
  const set: SentinelSet = {
    name,
    primaryPort,
    replicaPort,
    sentinelPort,
    async primaryNow() {
      const answer = await cli(sentinelPort, 'sentinel', 'get-master-addr-by-name', name);
      return Number(answer.split('\n')[1]);
    },
    cli,
    killPrimary() {
      servers.get(primaryPort)?.kill('SIGKILL');
    },
    kill(port) {
      servers.get(port)?.kill('SIGKILL');
    },
    startReplica(port, of) {
      server(port, '--replicaof', '127.0.0.1', String(of));
    },
    async stop() {
      for (const child of children) child.kill('SIGKILL');
      await rm(folder, { recursive: true, force: true });
    },
  };
  try {
    await waitFor(
      async () =>
        (await cli(replicaPort, 'info', 'replication').catch(() => '')).includes(
          'master_link_status:up',
        ),
      'the replica to follow its primary',
    );
    await waitFor(
      async () =>
        (await cli(sentinelPort, 'sentinel', 'replicas', name).catch(() => '')).includes(
          String(replicaPort),
        ),
      'the Sentinel to know the replica',
    );
  } catch (error) {
    await set.stop();
    throw error;
  }
  return set;
}
