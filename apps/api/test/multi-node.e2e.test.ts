import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceProcess } from '@hallmark/runtime/testing';
import { HANG_MS, waitFor } from '@hallmark/runtime/testing';
import { HallmarkClient, uploadFile } from '@hallmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintedTokens } from './support/raw-chain.ts';
import { type RunningService, startService } from './support/service.ts';
import { idsByOutcome, startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

const photo = join(import.meta.dirname, '../../../fixtures/photos/fig-0.25mp.jpg');
const JOBS = 12;
// The short form of a fault-injected run: two api processes and three workers share one
// database, Redis and data folder; jobs (IPFS records and NFTs among them) arrive through both
// apis while workers and an api are SIGKILLed and started again. Afterwards every job has ended,
// no NFT was minted twice, every output is where its row says, and every webhook event reached
// the receiver, each job's outcome under one event id (a delivery may repeat; an event may not).
describe('two apis and three workers, killed and restarted while jobs run', () => {
  let service: RunningService;
  let hooks: WebhookReceiver;
  const extra: ServiceProcess[] = [];

  beforeAll(async () => {
    hooks = await startReceiver();
    service = await startService({
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_POLL_MS: '200',
      WORKER_CONCURRENCY: '2',
      RECONCILE_INTERVAL_MS: '1000',
      RECONCILE_AFTER_MS: '3000',
    });
  }, HANG_MS);

  afterAll(async () => {
    await Promise.all(extra.map((process) => process.stop('SIGKILL').catch(() => null)));
    await service?.close();
    await hooks?.close();
  });

  it('every job ends once, each NFT is minted once, no output is lost', async () => {
    const second = await service.startApi();
    extra.push(second.process);
    const workers = [service.worker, await service.startWorker(), await service.startWorker()];
    extra.push(...workers.slice(1));
    const { apiKey } = await service.newClient();
    const clients = [service.baseUrl, second.baseUrl].map(
      (baseUrl) => new HallmarkClient({ baseUrl, token: apiKey }),
    );
    await clients[0]?.createWebhookEndpoint({ url: hooks.url });
    const bytes = await readFile(photo);

    const requestIds: string[] = [];
    const faults: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      const client = clients[i % 2] as HallmarkClient;
      const link = await client.createUploadLink({
        contentType: 'image/jpeg',
        fileName: `p${i}.jpg`,
      });
      await uploadFile(link.uploadLink, bytes, 'image/jpeg');
      const accepted = await client.createWatermarkJob(
        {
          fileId: link.fileId,
          options: {
            watermarkType: ['invisible', 'c2pa'],
            storeIpfs: i % 3 === 0,
            ...(i % 4 === 0 ? { mintNft: true } : {}),
          },
        },
        { idempotencyKey: `multi-node-${i}` },
      );
      requestIds.push(accepted.requestId);
      if (i === 3 || i === 7) {
        // A worker dies mid-work (its jobs' leases lapse; another worker takes them), and comes back.
        const index = i === 3 ? 1 : 2;
        await workers[index]?.stop('SIGKILL');
        faults.push(`worker ${index} killed after job ${i}`);
        const restarted = await service.startWorker();
        workers[index] = restarted;
        extra.push(restarted);
      }
      if (i === 5) {
        // The second api dies; its clients' next calls go to the first.
        await second.process.stop('SIGKILL');
        faults.push('api 2 killed after job 5');
        clients[1] = clients[0] as HallmarkClient;
      }
    }
    expect(faults).toHaveLength(3);

    await waitFor(
      async () =>
        (await service.prisma.watermarkJob.count({
          where: { id: { in: requestIds }, status: { in: ['success', 'failed'] } },
        })) === JOBS,
      'every job to end',
      { timeoutMs: 4 * HANG_MS },
    );
    const rows = await service.prisma.watermarkJob.findMany({
      where: { id: { in: requestIds } },
      include: { nft: true, ipfsRecord: true },
    });
    expect(rows.map((row) => [row.status, row.errorCode])).toEqual(
      rows.map(() => ['success', null]),
    );
    // Outputs are where the rows say, byte for byte as recorded.
    for (const row of rows) {
      const stored = await readFile(
        join(service.env.HALLMARK_DATA_DIR ?? '', 'objects', row.outputStorageKey ?? ''),
      );
      expect(stored.byteLength, row.id).toBe(Number(row.outputSizeBytes));
    }
    // An IPFS record for each job that asked for one or for an NFT (whose metadata it is).
    const recorded = requestIds.filter((_, i) => i % 3 === 0 || i % 4 === 0);
    expect(
      rows
        .filter((row) => row.ipfsRecord !== null)
        .map((row) => row.id)
        .sort(),
    ).toEqual(recorded.sort());
    // One mint per NFT job on the chain itself, each token a different job's.
    const nftRows = rows.filter((row) => row.nft !== null);
    expect(nftRows).toHaveLength(Math.ceil(JOBS / 4));
    const minted = await mintedTokens(
      service.chain.options.rpcUrl,
      service.chain.options.contractAddress,
    );
    const tokens = nftRows.map((row) => BigInt(row.nft?.tokenId ?? '-1'));
    for (const token of tokens)
      expect(
        minted.filter((t) => t === token),
        String(token),
      ).toHaveLength(1);
    expect(new Set(tokens).size).toBe(tokens.length);

    // Every event delivered (at least once), and each job's outcome and mint told under one id.
    const events = await service.prisma.webhookEvent.findMany({ select: { id: true } });
    const received = () => new Set(hooks.received.map((d) => String(d.headers['webhook-id'])));
    await waitFor(
      async () => events.every((event) => received().has(event.id)),
      'every webhook event to be delivered',
      { timeoutMs: 2 * HANG_MS },
    );
    const told = idsByOutcome(hooks.received);
    const idsOf = (type: string, requestId: string) =>
      told.get(`${type} ${requestId}`) ?? new Set();
    for (const id of requestIds) expect(idsOf('watermark.succeeded', id).size, id).toBe(1);
    for (const row of nftRows) expect(idsOf('nft.minted', row.id).size, row.id).toBe(1);
  });
});
