import type { Logger } from '@hallmark/config';
import {
  countReferencesLost,
  findMissingReferences,
  type Sql,
  storeContentReference,
} from '@hallmark/db';
import type { ObjectStorage } from '@hallmark/storage';
import { makeContentReference } from '@hallmark/watermark-core/content';

export interface BackfillReport {
  /** Jobs given a reference. */
  readonly filled: number;
  /** Jobs whose output retention deleted: they stay not compared. */
  readonly outputGone: number;
  /** Jobs whose output could not be read or decoded (logged, skipped). */
  readonly failed: number;
}

const BATCH = 50;

/**
 * Gives the marked jobs made before content references were kept a reference of their stored
 * output, batch by batch (resumable: what is done is skipped; safe beside running workers, a
 * reference stored meanwhile is kept). An output that cannot be read or decoded is logged and
 * skipped, never the end of the run. `batchSize`: jobs looked up per query.
 */
export async function backfillReferences(
  sql: Sql,
  storage: ObjectStorage,
  logger: Logger,
  maxPixels: number,
  batchSize = BATCH,
): Promise<BackfillReport> {
  let filled = 0;
  let failed = 0;
  let after: string | null = null;
  for (;;) {
    const batch = await findMissingReferences(sql, after, batchSize);
    if (batch.length === 0) break;
    for (const job of batch) {
      after = job.requestId;
      try {
        const reference = await makeContentReference(await storage.read(job.storageKey), maxPixels);
        if (await storeContentReference(sql, job.requestId, reference)) filled++;
      } catch (error) {
        failed++;
        logger.warn(
          { requestId: job.requestId, err: (error as Error).message },
          'no content reference: the output could not be read',
        );
      }
    }
  }
  return { filled, outputGone: await countReferencesLost(sql), failed };
}
