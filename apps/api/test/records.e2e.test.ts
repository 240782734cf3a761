import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { NftRegistry } from '@hallmark/chain';
import { HANG_MS, waitFor } from '@hallmark/runtime/testing';
import { type HallmarkClient, waitForJob, watermarkFile } from '@hallmark/sdk';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { createWalletClient, type Hex, http, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusOf } from './support/problem.ts';
import { rawRpc } from './support/raw-chain.ts';
import { type RunningService, startService } from './support/service.ts';
import { submitJob } from './support/submit-job.ts';

const photo = join(import.meta.dirname, '../../../fixtures/photos/fig-0.25mp.jpg');

/** `tokenURI(uint256)` through a hand-built eth_call, independent of the project's chain code. */
async function tokenUriByRawCall(
  rpcUrl: string,
  contract: string,
  tokenId: bigint,
): Promise<string> {
  const selector = 'c87b56dd'; // keccak256("tokenURI(uint256)")[0..4]
  const data = `0x${selector}${tokenId.toString(16).padStart(64, '0')}`;
  const result = (await rawRpc(rpcUrl, 'eth_call', [{ to: contract, data }, 'latest'])) as string;
  const bytes = Buffer.from(result.slice(2), 'hex');
  const length = Number(bytes.readBigUInt64BE(56)); // ABI string: offset word, length word, data
  return bytes.subarray(64, 64 + length).toString('utf8');
}

describe('IPFS records and NFTs on a real helia node and a real anvil chain', () => {
  let service: RunningService;
  let client: HallmarkClient;

  beforeAll(async () => {
    // Owners older than a second are re-read from the chain behind the next read.
    service = await startService({ NFT_OWNER_REFRESH_SECONDS: '1' });
    client = (await service.newClient()).client;
  });

  afterAll(async () => {
    await service?.close();
  });

  it('storeIpfs: the record is on IPFS, verifiable block by block, and readable by its owner', async () => {
    const { job } = await watermarkFile(
      client,
      photo,
      { watermarkType: ['c2pa'], data: { author: 'Ada', description: 'A fig' }, storeIpfs: true },
      { minIntervalMs: 50 },
    );
    const ipfs = job.ipfs;
    if (ipfs === undefined) throw new Error('no ipfs record in the job');
    expect(ipfs.metadata).toEqual({
      author: 'Ada',
      description: 'A fig',
      watermarked: true,
      watermarkTypes: ['c2pa'],
      fileId: job.fileId,
    });
    expect(ipfs.ipfsUrl).toBe(`${service.baseUrl}/gateway/ipfs/${ipfs.ipfsHash}`);

    // The raw block from the gateway hashes to the CID: recomputed here with multiformats.
    const raw = await fetch(ipfs.ipfsUrl, { headers: { accept: 'application/vnd.ipld.raw' } });
    expect(raw.headers.get('content-type')).toBe('application/vnd.ipld.raw');
    const block = new Uint8Array(await raw.arrayBuffer());
    const cid = CID.parse(ipfs.ipfsHash);
    expect(cid.version).toBe(1);
    expect(CID.create(1, cid.code, await sha256.digest(block)).equals(cid)).toBe(true);
    expect(JSON.parse(Buffer.from(block).toString('utf8'))).toEqual(ipfs.metadata);

    expect(await client.getIpfsRecord(ipfs.ipfsHash)).toEqual(ipfs);
  });

  it('mintNft: one token whose tokenURI is ipfs://<metadata>, whose image is the watermarked file, and whose owner follows transfers', async () => {
    const result = await watermarkFile(
      client,
      photo,
      {
        watermarkType: ['invisible', 'c2pa'],
        data: { author: 'Ada', licenseType: 'CC-BY-4.0' },
        mintNft: true,
      },
      { minIntervalMs: 50, timeoutMs: HANG_MS },
    );
    const nft = result.job.nft;
    if (nft === undefined || result.job.ipfs === undefined)
      throw new Error('no nft or ipfs record in the job');
    const row = await service.prisma.nft.findUniqueOrThrow({
      where: { jobId: result.job.requestId },
    });
    expect(row.gasUsed).toBeGreaterThan(0n);
    expect(Number(row.feeWei)).toBeGreaterThan(0);

    const { rpcUrl } = service.chain.options;
    expect(await tokenUriByRawCall(rpcUrl, nft.contract, BigInt(nft.tokenId))).toBe(
      `ipfs://${row.metadataCid}`,
    );
    expect(nft.blockchain).toBe('Anvil (local)');
    expect(nft.metadata.attributes).toContainEqual({ trait_type: 'author', value: 'Ada' });

    // The image the metadata names is exactly the watermarked file, served by the gateway.
    const image = nft.metadata.image.replace('ipfs://', '');
    const served = new Uint8Array(
      await (await fetch(`${service.baseUrl}/gateway/ipfs/${image}`)).arrayBuffer(),
    );
    const downloaded = await result.download();
    expect(createHash('sha256').update(served).digest('hex')).toBe(
      createHash('sha256').update(downloaded).digest('hex'),
    );

    // The same token; only when its owner was last read may have moved on (this service
    // re-reads an owner older than a second, and a loaded machine takes that long to get here).
    const { ownerAsOf, ...fetched } = await client.getNft(nft.tokenId);
    const { ownerAsOf: ownerAsOfInJob, ...inJob } = nft;
    expect(fetched).toEqual(inJob);
    expect(ownerAsOf).toBeGreaterThanOrEqual(ownerAsOfInJob);
    // Transfer on chain: the custody wallet (anvil account #0) sends the token elsewhere.
    const custody = createWalletClient({
      account: privateKeyToAccount(service.chain.options.minterKey as Hex),
      transport: http(rpcUrl),
    }).extend(publicActions);
    const newOwner = '0x000000000000000000000000000000000000bEEF';
    const hash = await custody.writeContract({
      chain: null,
      address: nft.contract as Hex,
      abi: [
        {
          type: 'function',
          name: 'transferFrom',
          stateMutability: 'nonpayable',
          inputs: [
            { name: 'from', type: 'address' },
            { name: 'to', type: 'address' },
            { name: 'tokenId', type: 'uint256' },
          ],
          outputs: [],
        },
      ],
      functionName: 'transferFrom',
      args: [nft.owner as Hex, newOwner, BigInt(nft.tokenId)],
    });
    await custody.waitForTransactionReceipt({ hash });
    // Reads serve the owner they have and refresh it behind them once it is a second old: a
    // later read shows the transfer, with a newer `ownerAsOf`.
    let latest = await client.getNft(nft.tokenId);
    await waitFor(
      async () => {
        latest = await client.getNft(nft.tokenId);
        return latest.owner === newOwner;
      },
      'the read owner to follow the transfer',
      { intervalMs: 250 },
    );
    expect(latest.owner).toBe(newOwner);
    expect(latest.ownerAsOf).toBeGreaterThan(nft.ownerAsOf - 1);
    expect((await client.getWatermarkJob(result.job.requestId)).nft?.owner).toBe(newOwner);
  });

  it("404 for unknown or another key's tokenId and ipfsHash; 400 when malformed", async () => {
    const { job } = await watermarkFile(
      client,
      photo,
      { watermarkType: ['c2pa'], storeIpfs: true },
      { minIntervalMs: 50 },
    );
    const other = (await service.newClient()).client;
    const hash = job.ipfs?.ipfsHash ?? '';
    expect(await statusOf(() => other.getIpfsRecord(hash))).toBe(404);
    expect(
      await statusOf(() =>
        client.getIpfsRecord('bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'),
      ),
    ).toBe(404);
    expect(await statusOf(() => client.getIpfsRecord('not-a-cid'))).toBe(400);
    expect(await statusOf(() => client.getNft('999999'))).toBe(404);
    expect(await statusOf(() => client.getNft('abc'))).toBe(400);
    // A token of its own, so this test stands alone: its owner reads it, another key cannot.
    const minted = await watermarkFile(
      client,
      photo,
      { watermarkType: ['c2pa'], mintNft: true },
      { minIntervalMs: 50, timeoutMs: HANG_MS },
    );
    const tokenId = minted.job.nft?.tokenId;
    if (tokenId === undefined) throw new Error('no nft in the job');
    expect((await client.getNft(tokenId)).tokenId).toBe(tokenId);
    expect(await statusOf(() => other.getNft(tokenId))).toBe(404);
    expect(await statusOf(() => other.getWatermarkJob(minted.job.requestId))).toBe(404);
  });
});

describe('a finished NFT job while the chain is down', () => {
  it('its status is 200 with the download link and the last known owner; nothing waits for the chain', async () => {
    const service = await startService({ NFT_OWNER_REFRESH_SECONDS: '1' });
    try {
      const { client } = await service.newClient();
      const { job } = await watermarkFile(
        client,
        photo,
        { watermarkType: ['c2pa'], mintNft: true },
        { minIntervalMs: 50, timeoutMs: HANG_MS },
      );
      // The RPC goes down, and its port then accepts connections that never answer (the worst
      // kind of outage: nothing is refused, everything hangs). Holding the port also keeps
      // another test's chain from appearing there.
      const { port } = new URL(service.chain.options.rpcUrl);
      await service.chain.stop();
      // When the API's refresh gives up on a request here (its read timeout), its socket closes.
      const givenUp: number[] = [];
      const hanging = createServer((socket) => {
        socket.once('close', () => givenUp.push(Date.now()));
      });
      await new Promise<void>((resolve) => hanging.listen(Number(port), '127.0.0.1', resolve));
      // Past the refresh age: every read below asks for a refresh, which fails behind it.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      let firstAnswer = 0;
      for (let i = 0; i < 3; i++) {
        const polled = await client.getWatermarkJob(job.requestId);
        firstAnswer ||= Date.now();
        expect(polled.status).toBe('success');
        expect(polled.watermarkedUrl).toMatch(/^http/);
        expect(polled.nft).toMatchObject({ tokenId: job.nft?.tokenId, owner: job.nft?.owner });
        const download = await fetch(polled.watermarkedUrl ?? '');
        expect(download.status).toBe(200);
      }
      expect((await client.getNft(job.nft?.tokenId ?? '')).owner).toBe(job.nft?.owner);
      await service.api.logged('nft owner refresh failed; serving the last known owners');
      // The first read answered with what it had while the refresh it asked for still waited on
      // the chain: an order of events, not a duration.
      await waitFor(() => givenUp.length > 0, 'the refresh to give up on the chain');
      expect(givenUp[0]).toBeGreaterThan(firstAnswer);
      hanging.close();
    } finally {
      await service.close();
    }
  });
});

describe('a worker killed right after sending the mint transaction', () => {
  it('is restarted and the job ends with one token, not two', async () => {
    // A lease longer than a loaded worker's event loop can stall between renewals (every third
    // of it): only the kill below may end a run. The killed run's lease is expired by hand
    // instead of waited out.
    const service = await startService({ JOB_LOCK_MS: '6000', WORKER_CONCURRENCY: '1' });
    const rpc = (method: string, params: unknown[] = []) =>
      rawRpc(service.chain.options.rpcUrl, method, params);
    try {
      const { client } = await service.newClient();
      const registry = new NftRegistry(service.chain.options);
      const before = await registry.totalMinted();
      // With automine off the mint stays pending, so the worker is surely waiting for it.
      await rpc('evm_setAutomine', [false]);
      const accepted = await submitJob(
        client,
        await readFile(photo),
        { watermarkType: ['c2pa'], mintNft: true },
        'fig.jpg',
      );
      // The job signs, stores and pins before it mints; a miss says where the job stood.
      const sentTx = () =>
        service.prisma.nft.findFirst({
          where: { jobId: accepted.requestId, txHash: { not: null } },
        });
      await waitFor(async () => (await sentTx()) !== null, 'the mint transaction').catch(
        async (error: Error) => {
          const row = await service.prisma.watermarkJob.findUnique({
            where: { id: accepted.requestId },
            select: { status: true, errorCode: true, errorMessage: true, steps: true },
          });
          throw new Error(`${error.message}; the job: ${JSON.stringify(row)}`);
        },
      );
      const sent = await sentTx();
      if (sent === null) throw new Error('the mint transaction is gone');
      expect(sent.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await service.worker.stop('SIGKILL')).toBeNull();
      await service.prisma.$executeRaw`
        UPDATE watermark_jobs SET lease_expires_at = now() - interval '1 second'
        WHERE id = ${accepted.requestId}::uuid`;

      await rpc('evm_setAutomine', [true]);
      await rpc('evm_mine');
      service.worker = await service.startWorker();
      const job = await waitForJob(client, accepted.requestId, {
        timeoutMs: HANG_MS,
        minIntervalMs: 100,
      });
      expect(job.status).toBe('success');
      expect(await registry.totalMinted()).toBe(before + 1n);
      expect(job.nft?.tokenId).toBe(String(before + 1n));
      const row = await service.prisma.nft.findUniqueOrThrow({
        where: { jobId: accepted.requestId },
      });
      expect(row.txHash).toBe(sent.txHash);
    } finally {
      await service.close();
    }
  });
});
