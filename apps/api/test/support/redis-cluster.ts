import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '@hallmark/runtime/testing';
import { freePort } from './free-port.ts';
import { startRedisServer } from './redis-server.ts';

const run = promisify(execFile);

/** Three primaries of a Redis Cluster (Debian's redis-server), on free local ports. */
export interface RedisClusterSet {
  readonly ports: readonly number[];
  /** Runs redis-cli against a node (`-c`: follows the cluster's redirections). */
  cli(port: number, ...args: string[]): Promise<string>;
  stop(): Promise<void>;
}

/** A port whose cluster bus port (10000 above) is free too, as Redis Cluster needs. */
async function clusterPort(taken: readonly number[]): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port > 55_000 || taken.includes(port)) continue;
    return port;
  }
}

export async function startRedisCluster(): Promise<RedisClusterSet> {
  const folder = await mkdtemp(join(tmpdir(), 'hallmark-cluster-'));
  const ports: number[] = [];
  for (let i = 0; i < 3; i++) ports.push(await clusterPort(ports));
  const children: ChildProcess[] = ports.map((port) =>
    startRedisServer(
      port,
      folder,
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      join(folder, `nodes-${port}.conf`),
    ),
  );
  const cli = async (port: number, ...args: string[]) =>
    (await run('redis-cli', ['-c', '-p', String(port), ...args])).stdout.trim();
  const set: RedisClusterSet = {
    ports,
    cli,
    async stop() {
      for (const child of children) child.kill('SIGKILL');
      await rm(folder, { recursive: true, force: true });
    },
  };
  try {
    for (const port of ports) {
      await waitFor(async () => (await cli(port, 'ping').catch(() => '')) === 'PONG', 'a node');
    }
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    for (const port of ports) {
      await waitFor(
        async () => (await cli(port, 'cluster', 'info')).includes('cluster_state:ok'),
        'the cluster to agree on its slots',
      );
    }
  } catch (error) {
    await set.stop();
    throw error;
  }
  return set;
}
