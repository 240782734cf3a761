import { join } from 'node:path';
import { waitFor } from '@hallmark/runtime/testing';
import { type HallmarkClient, watermarkFile } from '@hallmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusOf } from './support/problem.ts';
import { rawRpc, TRANSFER_TOPIC } from './support/raw-chain.ts';
import { type RunningService, startService } from './support/service.ts';

const photo = join(import.meta.dirname, '../../../fixtures/photos/fig-0.25mp.jpg');
const rpc = (service: RunningService, method: string, params: unknown[]) =>
  rawRpc(service.chain.options.rpcUrl, method, params);

/** `ownerOf(uint256)` through a hand-built eth_call, independent of the project's chain code. */
async function ownerByRawCall(service: RunningService, tokenId: string): Promise<string> {
  const data = `0x6352211e${BigInt(tokenId).toString(16).padStart(64, '0')}`;
  const result = (await rpc(service, 'eth_call', [
    { to: service.chain.options.contractAddress, data },
    'latest',
  ])) as string;
  return `0x${result.slice(-40)}`;
}

/** Transfer events of one token that are not its mint. */
async function transfersOf(service: RunningService, tokenId: string): Promise<unknown[]> {
  const logs = (await rpc(service, 'eth_getLogs', [
    {
      address: service.chain.options.contractAddress,
      fromBlock: '0x0',
      toBlock: 'latest',
      topics: [TRANSFER_TOPIC, null, null, `0x${BigInt(tokenId).toString(16).padStart(64, '0')}`],
    },
  ])) as { topics: string[] }[];
  return logs.filter((log) => !/^0x0{64}$/.test(log.topics[1] ?? ''));
}

const wallet = () => `0x${crypto.randomUUID().replaceAll('-', '').padEnd(40, '7')}`;

async function minted(client: HallmarkClient): Promise<string> {
  const { job } = await watermarkFile(
    client,
    photo,
    { watermarkType: ['c2pa'], mintNft: true },
    { minIntervalMs: 50 },
  );
  return job.nft?.tokenId ?? '';
}

async function confirmed(client: HallmarkClient, transferId: string) {
  let transfer = await client.getNftTransfer(transferId);
  await waitFor(
    async () => {
      transfer = await client.getNftTransfer(transferId);
      return transfer.status === 'confirmed' || transfer.status === 'failed';
    },
    `transfer ${transferId} to end`,
    { intervalMs: 100 },
  );
  return transfer;
}

describe('moving a token out of the custody wallet (a real anvil chain)', () => {
  let service: RunningService;
  let client: HallmarkClient;

  beforeAll(async () => {
    // A lease longer than a loaded worker's event loop can stall between renewals (every third
    // of it): only the kill below may end a transfer's run. The killed run's lease is expired by
    // hand, so the next worker claims the transfer at its next poll.
    service = await startService({ JOB_LOCK_MS: '6000' });
    client = (await service.newClient()).client;
  });

  afterAll(async () => {
    await service?.close();
  });

  it('transfers once: the owner read with a raw eth_call is the recipient; a second request is refused', async () => {
    const tokenId = await minted(client);
    const to = wallet();
    const accepted = await client.transferNft(tokenId, { to });
    expect(accepted.status).toBe('pending');
    const done = await confirmed(client, accepted.transferId);
    expect(done).toMatchObject({ status: 'confirmed', error: null });
    expect(done.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await ownerByRawCall(service, tokenId)).toLowerCase()).toBe(to.toLowerCase());
    expect((await client.getNft(tokenId)).owner.toLowerCase()).toBe(to.toLowerCase());
    expect(await statusOf(() => client.transferNft(tokenId, { to: wallet() }))).toBe(409);
    expect(await transfersOf(service, tokenId)).toHaveLength(1);
  });

  it('a worker killed after broadcasting: the next one finishes the same transaction, one transfer', async () => {
    const tokenId = await minted(client);
    const to = wallet();
    // Automine off: the transaction stays pending while the worker is killed.
    await rpc(service, 'evm_setAutomine', [false]);
    try {
      const accepted = await client.transferNft(tokenId, { to });
      const sentTx = () =>
        service.prisma.nftTransfer.findFirst({
          where: { id: accepted.transferId, txHash: { not: null } },
        });
      await waitFor(async () => (await sentTx()) !== null, 'the transfer to be broadcast');
      const sent = await sentTx();
      expect(sent?.status).toBe('sent');
      expect(await service.worker.stop('SIGKILL')).toBeNull();
      await service.prisma.$executeRaw`
        UPDATE nft_transfers SET lease_expires_at = now() - interval '1 second'
        WHERE id = ${accepted.transferId}::uuid`;
      await rpc(service, 'evm_setAutomine', [true]);
      await rpc(service, 'evm_mine', []);
      service.worker = await service.startWorker();
      const done = await confirmed(client, accepted.transferId);
      expect(done.status).toBe('confirmed');
      expect(done.transactionHash).toBe(sent?.txHash);
      expect((await ownerByRawCall(service, tokenId)).toLowerCase()).toBe(to.toLowerCase());
      expect(await transfersOf(service, tokenId)).toHaveLength(1);
    } finally {
      await rpc(service, 'evm_setAutomine', [true]);
    }
  });

  it("bad addresses are 400, another key's token and transfer 404", async () => {
    const tokenId = await minted(client);
    expect(await statusOf(() => client.transferNft(tokenId, { to: '0x1234' }))).toBe(400);
    expect(await statusOf(() => client.transferNft(tokenId, { to: `0x${'0'.repeat(40)}` }))).toBe(
      400,
    );
    const { client: stranger } = await service.newClient();
    expect(await statusOf(() => stranger.transferNft(tokenId, { to: wallet() }))).toBe(404);
    const mine = await client.transferNft(tokenId, { to: wallet() });
    expect(await statusOf(() => stranger.getNftTransfer(mine.transferId))).toBe(404);
    await confirmed(client, mine.transferId);
  });
});
