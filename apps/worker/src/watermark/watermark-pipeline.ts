import { randomBytes } from 'node:crypto';
import { claimJob, failJob, findJobRun, finishJob, type JobRun, reclaimJob } from '@hallmark/db';
import { LOGGER, type Logger, OBJECT_STORAGE, PrismaService } from '@hallmark/platform';
import {
  requestedRecords,
  type WatermarkOptions,
  WatermarkOptions as WatermarkOptionsSchema,
} from '@hallmark/schemas';
import { fileNameOfKey, type ObjectStorage } from '@hallmark/storage';
import { Inject, Injectable } from '@nestjs/common';
import { IpfsRecords } from '../records/ipfs-records.ts';
import { NftMinter } from '../records/nft-minter.ts';
import { type ImageInput, TECHNIQUES, type Techniques } from '../techniques/techniques.ts';
import { PermanentJobFailure } from './job-failure.ts';
import { type StepTiming, timed } from './job-steps.ts';

export type PipelineOutcome = { outcome: 'success' } | { outcome: 'skipped'; reason: string };

/**
 * The steps of one watermark job, in their fixed order: load the upload, embed the invisible
 * mark, sign the C2PA manifest (always last: any re-encode after it would drop the manifest),
 * store the output, then the requested records: the IPFS record, the NFT. The job stays
 * `processing` until every requested step has ended. Re-running a job is safe: the mark payload
 * is chosen once and kept, the output goes to a key derived from the request (a second run
 * overwrites rather than adds), and each record step does only what its row says is missing.
 */
@Injectable()
export class WatermarkPipeline {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(TECHNIQUES) private readonly techniques: Techniques,
    private readonly prisma: PrismaService,
    private readonly ipfs: IpfsRecords,
    private readonly nfts: NftMinter,
  ) {}

  async run(requestId: string, attempt: number, signal: AbortSignal): Promise<PipelineOutcome> {
    const row = await findJobRun(this.prisma.sql, requestId);
    if (row === null) return { outcome: 'skipped', reason: 'no such job row' };
    if (row.status === 'success' || row.status === 'failed') {
      return { outcome: 'skipped', reason: `already ${row.status}` };
    }
    const options = this.#options(row);
    // Undefined unless this job asks for the mark (#options has checked it is available).
    const invisible = options.watermarkType.includes('invisible')
      ? this.techniques.invisible
      : undefined;
    const markPayload = await this.#claim(row, attempt, invisible !== undefined);

    const steps: StepTiming[] = [];
    const { file } = row;
    let image: ImageInput = await timed(steps, 'load', attempt, async () => ({
      bytes: await this.storage.read(file.storageKey),
      contentType: file.contentType,
    }));

    let softBinding: { algorithm: string; payloadHex: string } | undefined;
    if (invisible !== undefined && markPayload !== null) {
      const marked = await timed(steps, 'invisible', attempt, () =>
        invisible.embed(image, markPayload, signal),
      );
      image = { ...image, bytes: marked };
      softBinding = { algorithm: invisible.algorithm, payloadHex: markPayload };
    }
    const c2pa = this.techniques.c2pa;
    if (options.watermarkType.includes('c2pa') && c2pa !== undefined) {
      const signed = await timed(steps, 'c2pa', attempt, () =>
        c2pa.sign(image, { fileId: file.id, requestId, data: options.data, softBinding }),
      );
      image = { ...image, bytes: signed };
    }

    const outputKey = `outputs/${requestId}/${fileNameOfKey(file.storageKey)}`;
    const stored = await timed(steps, 'store', attempt, () =>
      this.storage.write(outputKey, image.bytes, image.contentType),
    );
    const job = { id: requestId, apiKeyId: row.apiKeyId };
    const facts = { data: options.data, watermarkTypes: options.watermarkType, fileId: file.id };
    const records = requestedRecords(options);
    if (records.ipfs) {
      await timed(steps, 'ipfs', attempt, () => this.ipfs.storeRecord(job, facts));
    }
    if (records.nft) {
      const output = { fileName: fileNameOfKey(outputKey), bytes: image.bytes };
      await timed(steps, 'nft', attempt, () => this.nfts.mint(job, output, facts));
    }

    await finishJob(this.prisma.sql, requestId, {
      storageKey: outputKey,
      contentType: image.contentType,
      sizeBytes: stored.sizeBytes,
      sha256: stored.sha256,
      steps: [...previousSteps(row), ...steps],
    });
    this.logger.info({ requestId, attempt, steps }, 'watermark job succeeded');
    return { outcome: 'success' };
  }

  /** Ends a job for good with a stable code; a finished job is left as it is. */
  async fail(requestId: string, code: string, message: string): Promise<void> {
    await failJob(this.prisma.sql, requestId, code, message);
    this.logger.info({ requestId, code }, 'watermark job failed');
  }

  #options(row: JobRun): WatermarkOptions {
    const parsed = WatermarkOptionsSchema.safeParse(row.options);
    if (!parsed.success) {
      throw new PermanentJobFailure(
        'internal_error',
        `Stored options are invalid: ${parsed.error.message}`,
      );
    }
    const missing = parsed.data.watermarkType.filter(
      (technique) => this.techniques[technique] === undefined,
    );
    if (missing.length > 0) {
      throw new PermanentJobFailure(
        'technique_unavailable',
        `This deployment cannot apply ${missing.join(', ')}.`,
      );
    }
    if (parsed.data.mintNft === true && !this.nfts.available) {
      throw new PermanentJobFailure(
        'nft_unavailable',
        'This deployment has no blockchain for minting.',
      );
    }
    return parsed.data;
  }

  /**
   * Marks the job `processing` for this attempt and returns its mark payload, in one statement on
   * the usual path. The payload is chosen at random on the first attempt and kept by every retry;
   * if another run of the same job chose one first (the guard fails), that one is used.
   */
  async #claim(row: JobRun, attempt: number, wantsMark: boolean): Promise<string | null> {
    const markPayload = row.markPayload ?? (wantsMark ? randomBytes(8).toString('hex') : null);
    if (await claimJob(this.prisma.sql, row.id, attempt, markPayload, row.markPayload)) {
      return markPayload;
    }
    return reclaimJob(this.prisma.sql, row.id, attempt);
  }
}

function previousSteps(row: JobRun): object[] {
  return Array.isArray(row.steps) ? (row.steps as object[]) : [];
}
