import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startAnvil } from '../src/index.ts';
import { isRunning, jsonRpc, waitUntil } from './helpers.ts';

describe('startAnvil', () => {
  it('answers on 127.0.0.1 with the chain id asked for and the dev accounts', async () => {
    const node = await startAnvil({ chainId: 31338 });
    try {
      expect(node.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(Number(await jsonRpc<string>(node.rpcUrl, 'eth_chainId', []))).toBe(31338);
      expect(node.accounts).toHaveLength(10);
      expect(node.accounts[0]?.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
      const balance = await jsonRpc<string>(node.rpcUrl, 'eth_getBalance', [
        node.accounts[0]?.address,
        'latest',
      ]);
      expect(BigInt(balance)).toBe(10_000n * 10n ** 18n);
    } finally {
      await node.stop();
    }
    expect(isRunning(node.pid)).toBe(false);
    await node.stop();
  });

  it('runs several nodes side by side on free ports', async () => {
    const nodes = await Promise.all([startAnvil(), startAnvil()]);
    expect(new Set(nodes.map((node) => node.rpcUrl)).size).toBe(2);
    await Promise.all(nodes.map((node) => node.stop()));
    expect(nodes.filter((node) => isRunning(node.pid))).toEqual([]);
  });

  it('fails cleanly when the binary does not exist', async () => {
    await expect(startAnvil({ binary: '/nonexistent/anvil' })).rejects.toThrow(/did not start/);
  });

  it('reports why anvil could not start', async () => {
    const first = await startAnvil();
    try {
      const port = Number(new URL(first.rpcUrl).port);
      await expect(startAnvil({ port })).rejects.toThrow(/anvil did not start/);
    } finally {
      await first.stop();
    }
  });

  it.runIf(process.platform === 'linux')(
    'does not outlive a parent killed with SIGKILL',
    async () => {
      const parent = spawn(
        process.execPath,
        [join(import.meta.dirname, 'fixtures/anvil-parent.ts')],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const [line] = (await once(parent.stdout, 'data')) as [Buffer];
      const { pid } = JSON.parse(line.toString()) as { pid: number };
      expect(isRunning(pid)).toBe(true);
      parent.kill('SIGKILL');
      expect(await waitUntil(() => !isRunning(pid))).toBe(true);
    },
  );
});
