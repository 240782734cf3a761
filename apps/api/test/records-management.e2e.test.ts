import { join } from 'node:path';
import { type HallmarkClient, watermarkFile } from '@hallmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUntilAnsweredOrBlocked } from './support/lock-wait.ts';
import { statusOf } from './support/problem.ts';
import { type RunningService, startService } from './support/service.ts';

const photo = join(import.meta.dirname, '../../../fixtures/photos/fig-0.25mp.jpg');

/** A record's document as the trustless gateway serves it: its status only. */
async function gatewayStatus(service: RunningService, cid: string): Promise<number> {
  const response = await fetch(`${service.baseUrl}/gateway/ipfs/${cid}`, {
    headers: { accept: 'application/vnd.ipld.raw' },
  });
  await response.arrayBuffer();
  return response.status;
}

describe("a key's IPFS records and NFTs: listed, and records removed with their content", () => {
  let service: RunningService;
  let client: HallmarkClient;

  beforeAll(async () => {
    service = await startService();
    client = (await service.newClient()).client;
  });

  afterAll(async () => {
    await service?.close();
  });

  const stored = async (owner: HallmarkClient, author: string, mintNft = false) => {
    const { job } = await watermarkFile(
      owner,
      photo,
      { watermarkType: ['c2pa'], data: { author }, storeIpfs: true, mintNft },
      { minIntervalMs: 50 },
    );
    if (job.ipfs === undefined) throw new Error('no IPFS record');
    return job;
  };

  it('lists the records and tokens of the key, newest first, and nothing of another key', async () => {
    const first = await stored(client, 'Ada');
    const second = await stored(client, 'Grace', true);
    const records = await client.listIpfsRecords();
    expect(records.items.map((record) => record.ipfsHash)).toEqual([
      second.ipfs?.ipfsHash,
      first.ipfs?.ipfsHash,
    ]);
    const paged = await client.listIpfsRecords({ limit: 1 });
    expect(paged.items).toHaveLength(1);
    const rest = await client.listIpfsRecords({ limit: 1, cursor: paged.nextCursor ?? '' });
    expect(rest.items[0]?.ipfsHash).toBe(first.ipfs?.ipfsHash);
    const nfts = await client.listNfts();
    expect(nfts.items.map((nft) => nft.tokenId)).toEqual([second.nft?.tokenId]);

    const { client: stranger } = await service.newClient();
    expect((await stranger.listIpfsRecords()).items).toEqual([]);
    expect((await stranger.listNfts()).items).toEqual([]);
    expect(await statusOf(() => stranger.deleteIpfsRecord(first.ipfs?.ipfsHash ?? ''))).toBe(404);
  });

  it('removing a record unpins it: its blocks leave the gateway and its lookup answers 410', async () => {
    const job = await stored(client, 'Removed soon');
    const cid = job.ipfs?.ipfsHash ?? '';
    expect(await gatewayStatus(service, cid)).toBe(200);
    await client.deleteIpfsRecord(cid);
    expect(await gatewayStatus(service, cid)).toBe(404);
    expect(await statusOf(() => client.getIpfsRecord(cid))).toBe(410);
    expect((await client.listIpfsRecords()).items.map((record) => record.ipfsHash)).not.toContain(
      cid,
    );
    // Asking again is no error: the record is removed either way.
    await client.deleteIpfsRecord(cid);
  });

  it("keeps content that another key's record still holds (the same metadata, the same CID)", async () => {
    const { client: other } = await service.newClient();
    const mine = await stored(client, 'Shared');
    const theirs = await stored(other, 'Shared');
    const cid = mine.ipfs?.ipfsHash ?? '';
    expect(theirs.ipfs?.ipfsHash).not.toBe(cid);
    // fileId differs, so the documents differ: make two records share one CID for this check.
    await service.prisma.ipfsRecord.updateMany({
      where: { jobId: theirs.requestId },
      data: { cid },
    });
    await client.deleteIpfsRecord(cid);
    expect(await statusOf(() => client.getIpfsRecord(cid))).toBe(410);
    expect((await other.getIpfsRecord(cid)).ipfsHash).toBe(cid);
    expect(await gatewayStatus(service, cid)).toBe(200);
  });

  it('an identical record stored while one is removed keeps its content pinned (no race)', async () => {
    const mine = await stored(client, 'Raced');
    const cid = mine.ipfs?.ipfsHash ?? '';
    const { client: other } = await service.newClient();
    const { job: another } = await watermarkFile(
      other,
      photo,
      { watermarkType: ['c2pa'] },
      { minIntervalMs: 50 },
    );
    // The test plays a worker storing the same document for another key's job (as above, one CID
    // made to stand for both documents): it holds the content's
    // lock while the removal is asked for, then records its pin and lets go.
    let removal: Promise<void> | undefined;
    await service.prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('hallmark.ipfs-content'), hashtext(${cid}))`;
        // Until the removal has either finished or is waiting for the lock.
        ({ running: removal } = await startUntilAnsweredOrBlocked(
          service.prisma,
          () => client.deleteIpfsRecord(cid),
          'the removal to finish or wait',
        ));
        await tx.ipfsRecord.create({
          data: {
            jobId: another.requestId,
            apiKeyId: (
              await tx.watermarkJob.findUniqueOrThrow({ where: { id: another.requestId } })
            ).apiKeyId,
            cid,
            metadata: (await tx.ipfsRecord.findFirstOrThrow({ where: { cid } })).metadata ?? {},
          },
        });
      },
      { timeout: 60_000 },
    );
    await removal;
    expect(await gatewayStatus(service, cid)).toBe(200);
    expect(await statusOf(() => client.getIpfsRecord(cid))).toBe(410);
    expect((await other.getIpfsRecord(cid)).ipfsHash).toBe(cid);
  });
});
