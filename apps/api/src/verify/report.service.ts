import { type HallmarkConfig, publicBaseUrl } from '@hallmark/config';
import { CONFIG, OBJECT_STORAGE, PrismaService, TrustAnchors } from '@hallmark/runtime';
import {
  problemTypes,
  type ReportKeySet,
  type SignedVerificationReport,
  type VerificationStatement,
} from '@hallmark/schemas';
import type { ObjectStorage } from '@hallmark/storage';
import {
  type ReportSigningKey,
  reportHtml,
  reportingService,
  reportKeyJwk,
  type StoredReport,
  serialiseReport,
  signStatement,
  TimeStampUnavailableError,
  timeStampReport,
  verificationStatement,
} from '@hallmark/verification';
import {
  type CrJsonDocument,
  MalformedManifestStoreError,
  readCrJson,
} from '@hallmark/watermark-core';
import { Inject, Injectable } from '@nestjs/common';
import { ProblemException } from '../problem/problem.exception.ts';
import { imageProblem } from './image-body.ts';
import { REPORT_KEY } from './report-key.provider.ts';
import { VerificationViews } from './verification-views.ts';

/** A time-stamp authority answers in well under this; past it, the report is refused for now. */
const TSA_TIMEOUT_MS = 15_000;
const TSA_RETRY_AFTER_SECONDS = 30;

/** Signed reports of verifications, and the keys that sign them. */
@Injectable()
export class ReportService {
  readonly #service: ReturnType<typeof reportingService>;
  readonly #tsaUrl: string | undefined;
  /** The largest file whose crJSON is made here (in memory): what an image upload may be. */
  readonly #crJsonMaxBytes: number;

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    @Inject(REPORT_KEY) private readonly key: ReportSigningKey,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly anchors: TrustAnchors,
    private readonly prisma: PrismaService,
    private readonly views: VerificationViews,
  ) {
    this.#service = reportingService(publicBaseUrl(config));
    this.#tsaUrl = config.C2PA_TSA_URL;
    this.#crJsonMaxBytes = config.UPLOAD_MAX_BYTES;
  }

  /** The report's exact bytes: a checker refuses any other serialisation. */
  async signed(apiKeyId: string, requestId: string): Promise<string> {
    return (await this.#orRetryLater(this.#sign({ id: requestId, apiKeyId }))).text;
  }

  /** The page for people, carrying the signed report verbatim. */
  async page(apiKeyId: string, requestId: string): Promise<string> {
    const { statement, text } = await this.#orRetryLater(this.#sign({ id: requestId, apiKeyId }));
    return reportHtml(statement, text);
  }

  /** Any verification's report, for an operator: it names no key, job or file. */
  async signedForOperator(requestId: string): Promise<string> {
    return (await this.#orRetryLater(this.#sign({ id: requestId }))).text;
  }

  /**
   * The report of a verification just made without a key. Its picture is not kept, so the answer
   * carries the report; while the time-stamp authority does not answer, the verdict still does.
   */
  async signedIfStamped(requestId: string): Promise<string | null> {
    try {
      return (await this.#sign({ id: requestId })).text;
    } catch (error) {
      if (error instanceof TimeStampUnavailableError) return null;
      throw error;
    }
  }

  async #sign(where: {
    readonly id: string;
    readonly apiKeyId?: string;
  }): Promise<{ statement: VerificationStatement; text: string }> {
    const requestId = where.id;
    const row = await this.prisma.client.verification.findFirst({
      where,
      select: { status: true, report: true, finishedAt: true },
    });
    if (row === null) throw ProblemException.notFound(`No verification ${requestId}.`);
    if (row.status !== 'success' || row.report === null || row.finishedAt === null) {
      throw ProblemException.notFound(
        `Verification ${requestId} is ${row.status}: its report is signed once it succeeds.`,
      );
    }
    const stored = row.report as unknown as StoredReport;
    if (stored.checkedFile === undefined) {
      throw new ProblemException(
        problemTypes.reportUnavailable,
        `Verification ${requestId} was recorded before reports named the file they are about: verify the file again for a signed report.`,
      );
    }
    const statement = verificationStatement({
      verificationId: requestId,
      verifiedAt: row.finishedAt,
      checkedFile: stored.checkedFile,
      report: await this.views.forAnyone(stored),
      service: this.#service,
      development: this.key.development,
      now: new Date(),
    });
    const signed = signStatement(statement, this.key);
    return { statement, text: serialiseReport(await this.#timeStamped(signed)) };
  }

  /** With C2PA_TSA_URL, the signature is time-stamped; without the stamp, no report is given. */
  async #timeStamped(report: SignedVerificationReport): Promise<SignedVerificationReport> {
    if (this.#tsaUrl === undefined) return report;
    return timeStampReport(report, this.#tsaUrl, AbortSignal.timeout(TSA_TIMEOUT_MS));
  }

  async #orRetryLater<T>(signing: Promise<T>): Promise<T> {
    try {
      return await signing;
    } catch (error) {
      if (!(error instanceof TimeStampUnavailableError)) throw error;
      throw new ProblemException(
        problemTypes.serviceUnavailable,
        `The report could not be time-stamped (${error.message}); retry later.`,
        undefined,
        { 'retry-after': String(TSA_RETRY_AFTER_SECONDS) },
      );
    }
  }

  /** crJSON of the file a `POST /verify` verification examined, while it is kept. */
  async crJson(apiKeyId: string, requestId: string): Promise<CrJsonDocument> {
    const row = await this.prisma.client.verification.findFirst({
      where: { id: requestId, apiKeyId },
      select: {
        status: true,
        file: { select: { storageKey: true, deletedAt: true, sizeBytes: true } },
      },
    });
    if (row === null) throw ProblemException.notFound(`No verification ${requestId}.`);
    if (row.status !== 'success') {
      throw ProblemException.notFound(`Verification ${requestId} is ${row.status}.`);
    }
    if (row.file === null) {
      throw ProblemException.notFound(
        `Verification ${requestId} verified an image sent in the request, which is not kept: run hallmark inspect --crjson on it.`,
      );
    }
    if (row.file.deletedAt !== null) {
      throw new ProblemException(
        problemTypes.fileDeleted,
        `The file of verification ${requestId} was deleted by retention.`,
      );
    }
    // crJSON is made from the whole file in memory: a movie larger than an image may be is not.
    if (Number(row.file.sizeBytes ?? 0) > this.#crJsonMaxBytes) {
      throw new ProblemException(
        problemTypes.imageUnreadable,
        `The file of verification ${requestId} is larger than ${this.#crJsonMaxBytes} bytes; its crJSON is not made here: run hallmark inspect --crjson on it.`,
      );
    }
    const bytes = await this.storage.read(row.file.storageKey);
    try {
      return await readCrJson(bytes, await this.anchors.current());
    } catch (error) {
      if (error instanceof MalformedManifestStoreError) {
        throw new ProblemException(
          problemTypes.imageUnreadable,
          `The manifest store of this file cannot be decoded: ${error.message}`,
        );
      }
      throw imageProblem(error) ?? error;
    }
  }

  keys(): ReportKeySet {
    return { keys: [reportKeyJwk(this.key)] };
  }
}
