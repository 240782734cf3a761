import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { waitFor } from '@hallmark/runtime/testing';
import { freePort } from './free-port.ts';

export interface PrivateRedis {
  readonly url: string;
  /** Kills the server: with no persistence, every queue entry in it is lost. */
  stop(): Promise<void>;
  /** Starts an empty server again on the same port. */
  start(): Promise<void>;
}

/**
 * A Redis server of the test's own (the machine's `redis-server` binary on a free loopback
 * port), so a test can take Redis away without disturbing the shared one other suites use.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let server: ChildProcess | undefined;
  const start = async () => {
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await waitForPort(port, server);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (server === undefined || server.exitCode !== null) return;
      const exited = once(server, 'exit');
      server.kill('SIGKILL');
      await exited;
    },
    start,
  };
}

/** Resolves once `port` accepts connections; fails at once if the server exited instead. */
async function waitForPort(port: number, server: ChildProcess): Promise<void> {
  await waitFor(async () => {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(
        `redis-server exited (${server.exitCode ?? server.signalCode}) before it listened on ${port}`,
      );
    }
    return new Promise<boolean>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  }, `redis-server to listen on ${port}`);
}
