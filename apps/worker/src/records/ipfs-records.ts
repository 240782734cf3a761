import { insertIpfsRecord, lockIpfsContent } from '@hallmark/db';
import { buildIpfsRecord, type IpfsStore, type WatermarkFacts } from '@hallmark/ipfs';
import { IpfsNode, PrismaService } from '@hallmark/runtime';
import { storedBytes } from '@hallmark/runtime/metrics';
import { Injectable } from '@nestjs/common';

export interface JobRef {
  readonly id: string;
  readonly apiKeyId: string;
}

/**
 * The IPFS side of a job: the metadata record as a JSON document. The node is the process's
 * (opened on first use, so a worker that never stores on IPFS never starts one).
 */
@Injectable()
export class IpfsRecords {
  constructor(
    private readonly node: IpfsNode,
    private readonly prisma: PrismaService,
  ) {}

  store(): Promise<IpfsStore> {
    return this.node.store();
  }

  /**
   * Stores the record once per job: a retry finds the row and does nothing. The document is
   * added again and pinned under its content's lock, with the row: a removal of an identical
   * record of another job may have unpinned (and on the embedded node deleted) it since the
   * first add, and cannot do so between this pin and the row that holds it.
   */
  async storeRecord(job: JobRef, facts: WatermarkFacts): Promise<void> {
    const existing = await this.prisma.client.ipfsRecord.findUnique({ where: { jobId: job.id } });
    if (existing !== null) return;
    const store = await this.store();
    const metadata = buildIpfsRecord(facts);
    const cid = await store.addJson(metadata);
    await this.prisma.transaction(async (sql) => {
      await lockIpfsContent(sql, cid.toString());
      await store.addJson(metadata);
      await store.pin(cid, { name: `hallmark-record-${job.id}` });
      await insertIpfsRecord(sql, {
        jobId: job.id,
        apiKeyId: job.apiKeyId,
        cid: cid.toString(),
        metadata,
      });
    });
    storedBytes.inc({ store: 'ipfs' }, Buffer.byteLength(JSON.stringify(metadata)));
  }
}
