import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { type HallmarkConfig, type Logger } from '@hallmark/config';
import {
  claimJob,
  failJob,
  failUnleasedJob,
  findJobRun,
  finishJob,
  isUniqueViolation,
  type JobClaim,
  type JobLease,
  type JobRun,
  type LeaseTerms,
  recordOutput,
  releaseLease,
  renewLease,
  type StoredOutput,
} from '@hallmark/db';
import { CONFIG, LOGGER, OBJECT_STORAGE, PrismaService } from '@hallmark/runtime';
import { storedBytes } from '@hallmark/runtime/metrics';
import {
  JOB_ERROR_CODES,
  type JobErrorCode,
  requestedRecords,
  type WatermarkOptions,
  WatermarkOptions as WatermarkOptionsSchema,
} from '@hallmark/schemas';
import { fileNameOfKey, type ObjectStorage, type StoredObject } from '@hallmark/storage';
import { Inject, Injectable } from '@nestjs/common';
import { LeaseKeeper, LeaseLostError } from '../lease-keeper.ts';
import { IpfsRecords } from '../records/ipfs-records.ts';
import { NftMinter, type WatermarkedOutput } from '../records/nft-minter.ts';
import { inScratchFolder, scratchRoot } from '../scratch-folder.ts';
import {
  type C2paSigning,
  type ImageInput,
  type InvisibleTechnique,
  type SignedImage,
  TECHNIQUES,
  type Techniques,
} from '../techniques/techniques.ts';
import { asPermanentFailure, finalFailureCode, PermanentJobFailure } from './job-failure.ts';
import { type StepTiming, timed } from './job-steps.ts';
import { isTimeBasedMedia, processMediaThroughFiles } from './media-through-files.ts';

/** Crashed runs a job survives: the next crash (the third) fails it with `worker_crashed`. */
export const MAX_CRASHES = 2;
/** A 64-bit draw colliding thrice means a broken random source, not bad luck. */
const MAX_PAYLOAD_DRAWS = 3;

export type PipelineOutcome =
  | { readonly outcome: 'success' }
  | { readonly outcome: 'failed'; readonly code: JobErrorCode }
  | { readonly outcome: 'skipped'; readonly reason: string }
  /** Another run holds a live lease on the job: try again later, or leave it to that run. */
  | { readonly outcome: 'busy'; readonly until: Date };

export interface RunContext {
  /** The queue will not deliver this entry again: a transient failure now fails the job. */
  readonly lastQueueAttempt: boolean;
  /** The run's time limit (JOB_TIMEOUT_MS). */
  readonly deadline: AbortSignal;
}

type Claimed = Extract<JobClaim, { kind: 'claimed' }>;

/**
 * One run of one watermark job, under the job's lease (see @hallmark/db's job-lease statements):
 * claim, then the steps in their fixed order: load the upload, embed the invisible mark, sign the
 * C2PA manifest (always last: any re-encode after it would drop the manifest), store the output,
 * then the requested records: the IPFS record, the NFT.
 *
 * A retry reproduces nothing it can keep: the mark payload is chosen by the first run, and once a
 * run has recorded its output every later run uses those very bytes (for the NFT too) instead of
 * computing new ones, so what is pinned and minted is what the client downloads. Each run writes
 * its output under its own attempt number, so a run that lost its lease cannot overwrite the
 * recorded file. Every write of the run is conditional on its lease; a run that lost it stops at
 * its next step and changes nothing.
 */
@Injectable()
export class WatermarkPipeline {
  readonly #terms: LeaseTerms;
  /** Where video and sound are signed, one folder per run, removed when the run ends. */
  readonly #scratch: string;

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(TECHNIQUES) private readonly techniques: Techniques,
    private readonly prisma: PrismaService,
    private readonly ipfs: IpfsRecords,
    private readonly nfts: NftMinter,
  ) {
    this.#scratch = scratchRoot(config);
    this.#terms = {
      leaseMs: config.JOB_LOCK_MS,
      maxAttempts: config.JOB_ATTEMPTS,
      maxCrashes: MAX_CRASHES,
    };
  }

  async run(requestId: string, context: RunContext): Promise<PipelineOutcome> {
    const row = await findJobRun(this.prisma.sql, requestId);
    if (row === null) return { outcome: 'skipped', reason: 'no such job row' };
    if (row.status === 'success' || row.status === 'failed') {
      return { outcome: 'skipped', reason: `already ${row.status}` };
    }
    const claim = await this.#claim(requestId, wantsMark(row));
    switch (claim.kind) {
      case 'missing':
        return { outcome: 'skipped', reason: 'no such job row' };
      case 'finished':
        return { outcome: 'skipped', reason: 'already finished' };
      case 'leased':
        return { outcome: 'busy', until: claim.until };
      case 'exhausted':
        return this.#failExhausted(requestId, claim);
      case 'claimed':
        return this.#runClaimed(row, claim, context);
    }
  }

  /**
   * Claims the job's lease; a job that needs a mark gets its payload with its first claim. The
   * payloads are unique (a mark leads back to exactly one job): a draw that collides with an
   * issued one is drawn again.
   */
  async #claim(requestId: string, needsMark: boolean): Promise<JobClaim> {
    for (let draw = 1; ; draw++) {
      try {
        return await claimJob(
          this.prisma.sql,
          requestId,
          randomUUID(),
          needsMark ? randomBytes(8).toString('hex') : null,
          this.#terms,
        );
      } catch (error) {
        if (!isUniqueViolation(error) || draw >= MAX_PAYLOAD_DRAWS) throw error;
        this.logger.warn(
          { requestId, draw },
          'mark payload collided with an issued one; drawing again',
        );
      }
    }
  }

  async #runClaimed(row: JobRun, claim: Claimed, context: RunContext): Promise<PipelineOutcome> {
    const keeper = new LeaseKeeper(
      {
        what: `job ${claim.lease.jobId}`,
        lease: claim.lease,
        renew: () => renewLease(this.prisma.sql, claim.lease, this.#terms.leaseMs),
      },
      this.#terms.leaseMs,
      context.deadline,
    );
    try {
      const steps = await this.#steps(row, claim, keeper);
      keeper.confirm(
        await finishJob(this.prisma.sql, claim.lease, [...previousSteps(row), ...steps]),
      );
      this.logger.info(
        { requestId: row.id, attempt: claim.attempt, steps },
        'watermark job succeeded',
      );
      return { outcome: 'success' };
    } catch (error) {
      return await this.#settle(error, claim, keeper, context);
    } finally {
      keeper.stop();
    }
  }

  async #steps(row: JobRun, claim: Claimed, keeper: LeaseKeeper<JobLease>): Promise<StepTiming[]> {
    const { attempt } = claim;
    const options = this.#options(row);
    const steps: StepTiming[] = [];
    const output =
      claim.output === null
        ? await this.#produce(row, claim, options, keeper, steps)
        : { ...claim.output, bytes: undefined };

    const job = { id: row.id, apiKeyId: row.apiKeyId };
    const facts = { data: options.data, watermarkTypes: options.watermarkType, fileId: row.fileId };
    const records = requestedRecords(options);
    if (records.ipfs) {
      keeper.assertHeld();
      await timed(steps, 'ipfs', attempt, () => this.ipfs.storeRecord(job, facts));
    }
    if (records.nft) {
      keeper.assertHeld();
      const fileName = fileNameOfKey(output.storageKey);
      const mint = (file: WatermarkedOutput) => this.nfts.mint(job, keeper, file, facts);
      // The recorded output, read back when an earlier run stored it: the NFT holds these bytes.
      // A video or a recording is read into a file, never whole into memory.
      await timed(steps, 'nft', attempt, async () => {
        if (output.bytes !== undefined) return mint({ fileName, bytes: output.bytes });
        if (!isTimeBasedMedia(output.contentType)) {
          return mint({ fileName, bytes: await this.storage.read(output.storageKey) });
        }
        return inScratchFolder(this.#scratch, async (folder) => {
          const path = join(folder, 'output');
          await this.storage.readToFile(output.storageKey, path);
          return mint({ fileName, path });
        });
      });
    }
    return steps;
  }

  /** Computes, stores and records the output; from then on it is the job's, for every run. */
  async #produce(
    row: JobRun,
    claim: Claimed,
    options: WatermarkOptions,
    keeper: LeaseKeeper<JobLease>,
    steps: StepTiming[],
  ): Promise<StoredOutput & { bytes: Uint8Array | undefined }> {
    const { attempt, markPayload } = claim;
    const { file } = row;
    // Taken now: the job signs with the identity current when it started (a rotation may follow).
    const signing = options.watermarkType.includes('c2pa')
      ? this.techniques.c2pa?.begin()
      : undefined;
    // Keys of this attempt's own: a run that lost its lease cannot overwrite the recorded files.
    const storageKey = `outputs/${row.id}/${attempt}/${fileNameOfKey(file.storageKey)}`;
    const manifestKey = `manifests/${row.id}/${attempt}.c2pa`;
    const invisible = options.watermarkType.includes('invisible')
      ? this.techniques.invisible
      : undefined;
    if (isTimeBasedMedia(file.contentType)) {
      await keeper.renewNow();
      return this.#produceMedia(row, claim, options, keeper, steps, {
        storageKey,
        manifestKey,
        signing,
        invisible,
      });
    }
    let image: ImageInput = await timed(steps, 'load', attempt, async () => ({
      bytes: await this.storage.read(file.storageKey),
      contentType: file.contentType,
    }));
    let softBinding: { algorithm: string; payloadHex: string } | undefined;
    // Taken by the embedder from the pixels it reads anyway: a copy's fingerprint is compared with
    // it, so a mark moved onto another picture is caught. Only marked outputs need one.
    let fingerprint: string | undefined;
    let contentReference: Uint8Array | undefined;
    let size: { width: number; height: number } | undefined;
    if (invisible !== undefined && markPayload !== null) {
      const marked = await timed(steps, 'invisible', attempt, () =>
        invisible.embed(image, markPayload, keeper.signal),
      );
      image = { ...image, bytes: marked.bytes };
      fingerprint = marked.fingerprint;
      contentReference = marked.contentReference;
      size = { width: marked.width, height: marked.height };
      softBinding = { algorithm: invisible.algorithm, payloadHex: markPayload };
    }
    let signed: SignedImage | undefined;
    if (signing !== undefined) {
      keeper.assertHeld();
      signed = await timed(steps, 'c2pa', attempt, () =>
        signing.sign(image, {
          fileId: file.id,
          requestId: row.id,
          data: options.data,
          softBinding,
          fingerprint,
        }),
      );
      image = { ...image, bytes: signed.bytes };
    }

    await keeper.renewNow();
    const stored = await timed(steps, 'store', attempt, async () => {
      if (signed !== undefined) {
        await this.storage.write(manifestKey, signed.manifestStore, 'application/c2pa');
      }
      return this.storage.write(storageKey, image.bytes, image.contentType);
    });
    const recorded = await this.#record(
      claim,
      keeper,
      { storageKey, contentType: image.contentType, stored, fingerprint, size, contentReference },
      signed === undefined ? null : { manifestId: signed.manifestId, storageKey: manifestKey },
    );
    return { ...recorded, bytes: image.bytes };
  }

  /**
   * A video or a recording, through files: the video mark (an MP4 or MOV; the API refuses it on other
   * media), then the manifest, bound to the mark as an image's is.
   */
  async #produceMedia(
    row: JobRun,
    claim: Claimed,
    options: WatermarkOptions,
    keeper: LeaseKeeper<JobLease>,
    steps: StepTiming[],
    made: {
      readonly storageKey: string;
      readonly manifestKey: string;
      readonly signing: C2paSigning | undefined;
      readonly invisible: InvisibleTechnique | undefined;
    },
  ): Promise<StoredOutput & { bytes: undefined }> {
    const { attempt, markPayload } = claim;
    const { file } = row;
    const { invisible, signing } = made;
    const payloadHex = invisible === undefined ? null : markPayload;
    const softBinding =
      invisible === undefined || payloadHex === null
        ? undefined
        : { algorithm: invisible.algorithm, payloadHex };
    const output = await processMediaThroughFiles(
      this.storage,
      this.#scratch,
      {
        inputKey: file.storageKey,
        outputKey: made.storageKey,
        manifestKey: made.manifestKey,
        contentType: file.contentType,
        ...(invisible === undefined || payloadHex === null
          ? {}
          : {
              mark: (input: string, marked: string) =>
                invisible.markVideo(input, marked, payloadHex, keeper.signal),
            }),
        ...(signing === undefined
          ? {}
          : {
              sign: (input: string, signed: string) => {
                keeper.assertHeld();
                return signing.signFile(input, signed, {
                  fileId: file.id,
                  requestId: row.id,
                  data: options.data,
                  softBinding,
                  fingerprint: undefined,
                });
              },
            }),
      },
      (name, work) => timed(steps, name, attempt, work),
    );
    return this.#record(
      claim,
      keeper,
      {
        storageKey: made.storageKey,
        contentType: file.contentType,
        stored: output.stored,
        size: output.size,
      },
      output.signed === undefined
        ? null
        : { manifestId: output.signed.manifestId, storageKey: made.manifestKey },
    );
  }

  /** Records the stored output (and its manifest sidecar) as the job's, under the run's lease. */
  async #record(
    claim: Claimed,
    keeper: LeaseKeeper<JobLease>,
    made: {
      readonly storageKey: string;
      readonly contentType: string;
      readonly stored: StoredObject;
      readonly fingerprint?: string | undefined;
      readonly size?: { readonly width: number; readonly height: number } | undefined;
      readonly contentReference?: Uint8Array | undefined;
    },
    manifest: { readonly manifestId: string; readonly storageKey: string } | null,
  ): Promise<StoredOutput & { bytes: undefined }> {
    storedBytes.inc({ store: 'storage' }, made.stored.sizeBytes);
    const output = {
      storageKey: made.storageKey,
      contentType: made.contentType,
      sizeBytes: made.stored.sizeBytes,
      sha256: made.stored.sha256,
      fingerprint: made.fingerprint ?? null,
      width: made.size?.width ?? null,
      height: made.size?.height ?? null,
      contentReference: made.contentReference ?? null,
    };
    keeper.confirm(await recordOutput(this.prisma.sql, claim.lease, output, manifest));
    return { ...output, bytes: undefined };
  }

  /**
   * What a failed run leaves behind: nothing when it lost its lease; a failed job when no retry
   * can help (a permanent failure, the last attempt); else the lease given back for the retry.
   */
  async #settle(
    error: unknown,
    claim: Claimed,
    keeper: LeaseKeeper<JobLease>,
    context: RunContext,
  ): Promise<PipelineOutcome> {
    const requestId = claim.lease.jobId;
    if (error instanceof LeaseLostError || keeper.lost) {
      this.logger.warn(
        { requestId, attempt: claim.attempt },
        'lease lost; another run owns the job',
      );
      return { outcome: 'skipped', reason: 'lease lost' };
    }
    const permanent = asPermanentFailure(timeoutAware(error, context.deadline));
    const last = context.lastQueueAttempt || claim.attempt >= this.#terms.maxAttempts;
    this.logger.warn(
      {
        requestId,
        attempt: claim.attempt,
        err: (error as Error).message,
        permanent: permanent !== null,
      },
      'watermark attempt failed',
    );
    if (permanent === null && !last) {
      await releaseLease(this.prisma.sql, claim.lease);
      throw error;
    }
    const code = permanent?.code ?? finalFailureCode(error);
    // Messages of our own failures are written for the client; anything else is described by
    // its code only (the details, which may name hosts or files, stay in the log).
    const message =
      permanent?.message ??
      `${JOB_ERROR_CODES[code]} (${claim.attempt} attempt${claim.attempt === 1 ? '' : 's'})`;
    if (!(await failJob(this.prisma.sql, claim.lease, code, message))) {
      return { outcome: 'skipped', reason: 'lease lost' };
    }
    this.logger.info({ requestId, code }, 'watermark job failed');
    return { outcome: 'failed', code };
  }

  async #failExhausted(
    requestId: string,
    claim: Extract<JobClaim, { kind: 'exhausted' }>,
  ): Promise<PipelineOutcome> {
    const code: JobErrorCode = claim.reason === 'crashes' ? 'worker_crashed' : 'attempts_exhausted';
    const message =
      claim.reason === 'crashes'
        ? `The worker stopped while processing this image ${claim.crashes} times; it is not retried.`
        : `${JOB_ERROR_CODES.attempts_exhausted} (${claim.attempts} attempts)`;
    if (!(await failUnleasedJob(this.prisma.sql, requestId, code, message))) {
      return { outcome: 'skipped', reason: 'finished or held by another run' };
    }
    this.logger.warn(
      { requestId, code, attempts: claim.attempts, crashes: claim.crashes },
      'watermark job failed',
    );
    return { outcome: 'failed', code };
  }

  #options(row: JobRun): WatermarkOptions {
    const parsed = WatermarkOptionsSchema.safeParse(row.options);
    if (!parsed.success) {
      throw new PermanentJobFailure(
        'internal_error',
        'The stored options of this job are invalid; tell the operator.',
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
}

/** Whether the job asks for the invisible mark, so that its first run chooses a payload. */
function wantsMark(row: JobRun): boolean {
  const parsed = WatermarkOptionsSchema.safeParse(row.options);
  return parsed.success && parsed.data.watermarkType.includes('invisible');
}

function previousSteps(row: JobRun): object[] {
  return Array.isArray(row.steps) ? (row.steps as object[]) : [];
}

/** A run cut off by the time limit fails with a clear code, whatever the step threw. */
function timeoutAware(error: unknown, deadline: AbortSignal): unknown {
  if (!deadline.aborted) return error;
  return Object.assign(new Error('Processing took longer than this deployment allows.'), {
    code: 'processing_timeout',
  });
}
