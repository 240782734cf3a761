import type { JobViewRow } from '@hallmark/db';
import { type IpfsRecord, type Nft, problemTypes, type WatermarkJob } from '@hallmark/schemas';
import type { ObjectStorage } from '@hallmark/storage';
import { ProblemException } from '../problem/problem.exception.ts';

/**
 * The API's view of a job row. A download link is minted fresh on every read, so a
 * client that polls late still gets a link valid for the full lifetime. A job whose output
 * retention deleted answers 410: there is nothing left to link to.
 */
export async function toJobView(
  row: JobViewRow,
  storage: ObjectStorage,
  downloadTtlSeconds: number,
  records: { ipfs?: IpfsRecord | undefined; nft?: Nft | undefined } = {},
): Promise<WatermarkJob> {
  const base = { status: row.status, requestId: row.id, fileId: row.fileId };
  if (row.outputDeletedAt !== null) {
    throw new ProblemException(
      problemTypes.outputDeleted,
      `The watermarked file of job ${row.id} was deleted on ${row.outputDeletedAt.toISOString()} by this deployment's retention.`,
    );
  }
  if (row.status === 'success' && row.outputStorageKey !== null) {
    const expiredAt = Math.floor(Date.now() / 1000) + downloadTtlSeconds;
    const watermarkedUrl = await storage.downloadLink(row.outputStorageKey, {
      expiresAt: new Date(expiredAt * 1000),
      contentType: row.outputContentType ?? 'application/octet-stream',
    });
    return {
      ...base,
      watermarkedUrl,
      expiredAt,
      ...(records.ipfs === undefined ? {} : { ipfs: records.ipfs }),
      ...(records.nft === undefined ? {} : { nft: records.nft }),
    };
  }
  if (row.status === 'failed') {
    return {
      ...base,
      error: {
        code: row.errorCode ?? 'internal_error',
        message: row.errorMessage ?? 'The job failed.',
      },
    };
  }
  return base;
}
