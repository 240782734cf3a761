import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HANG_MS, waitFor } from '@hallmark/runtime/testing';
import { freePortWith } from './free-port.ts';
import { startRedisServer } from './redis-server.ts';

const run = promisify(execFile);

/** Three primaries of a Redis Cluster (Debian's redis-server), on free local ports. */
export interface RedisClusterSet {
  readonly ports: readonly number[];
  /** Runs redis-cli against a node (`-c`: follows the cluster's redirections). */
  cli(port: number, ...args: string[]): Promise<string>;
  stop(): Promise<void>;
}

/** Each step of the start names itself when it hangs, within the test's hook timeout. */
const STEP = { timeoutMs: HANG_MS / 4 };

/** Redis Cluster's bus listens this far above a node's port. */
const BUS_PORT_OFFSET = 10_000;

/**
 * A port whose cluster bus port is free too, both below the ephemeral range: a bus port in it
 * could be taken by any outgoing connection of a parallel test before the node binds it.
 */
async function clusterPort(taken: readonly number[]): Promise<number> {
  for (;;) {
    const port = await freePortWith(BUS_PORT_OFFSET);
    const clash = (other: number) =>
      [other, other + BUS_PORT_OFFSET].some(
        (used) => used === port || used === port + BUS_PORT_OFFSET,
      );
    if (!taken.some(clash)) return port;
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
    for (const [index, port] of ports.entries()) {
      const child = children[index];
      await waitFor(
        async () => {
          // A node that could not bind its ports exits: say so now rather than at the timeout.
          if (child !== undefined && (child.exitCode !== null || child.signalCode !== null)) {
            throw new Error(`redis-server on ${port} exited at start`);
          }
          return (await cli(port, 'ping').catch(() => '')) === 'PONG';
        },
        `the node on ${port}`,
        STEP,
      );
    }
    await run(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
      { timeout: STEP.timeoutMs },
    );
    for (const port of ports) {
      await waitFor(
        async () => (await cli(port, 'cluster', 'info')).includes('cluster_state:ok'),
        'the cluster to agree on its slots',
        STEP,
      );
    }
  } catch (error) {
    await set.stop();
    throw error;
  }
  return set;
}
