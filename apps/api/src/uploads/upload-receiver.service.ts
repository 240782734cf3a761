import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { File } from '@hallmark/db';
import { CONFIG, type HallmarkConfig, OBJECT_STORAGE, PrismaService } from '@hallmark/platform';
import { problemTypes, sniffImageFormat } from '@hallmark/schemas';
import { LocalStorage, type ObjectStorage, UploadTooLargeError } from '@hallmark/storage';
import { Inject, Injectable } from '@nestjs/common';
import { ProblemException } from '../problem/problem.exception.ts';

export interface UploadReceipt {
  fileId: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
}

/** The columns of a file row that receiving and checking an upload need. */
export const UPLOAD_FILE_COLUMNS = {
  id: true,
  status: true,
  contentType: true,
  storageKey: true,
} as const satisfies Partial<Record<keyof File, true>>;

export type UploadFile = Pick<File, keyof typeof UPLOAD_FILE_COLUMNS>;

function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Checks uploaded bytes before anything decodes them: declared type, size limit, real type by
 * magic bytes. A refused upload leaves no bytes behind and its link usable again; an accepted
 * one is recorded with size and SHA-256, and its link is spent.
 */
@Injectable()
export class UploadReceiver {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly prisma: PrismaService,
  ) {}

  /** Spec 4.2 with the local driver: the bytes stream through the API onto disk. */
  async receive(
    key: string,
    contentTypeHeader: string | undefined,
    body: Readable,
  ): Promise<UploadReceipt> {
    if (!(this.storage instanceof LocalStorage)) {
      throw ProblemException.notFound('This deployment stores files elsewhere.');
    }
    const file = await this.prisma.client.file.findUnique({
      where: { storageKey: key },
      select: UPLOAD_FILE_COLUMNS,
    });
    if (file === null) throw ProblemException.notFound('No upload is expected at this link.');
    const declared = mediaTypeOf(contentTypeHeader);
    if (declared !== file.contentType) {
      throw new ProblemException(
        problemTypes.validationError,
        `Content-Type must be ${file.contentType}, as declared for this upload; got ${declared || 'none'}.`,
        [{ path: 'Content-Type', message: `Expected ${file.contentType}` }],
      );
    }
    // Claiming the row first makes the link single-use even under concurrent PUTs.
    const claimed = await this.prisma.client.file.updateMany({
      where: { id: file.id, status: 'awaiting_upload' },
      data: { status: 'uploading' },
    });
    if (claimed.count === 0) {
      throw new ProblemException(
        problemTypes.uploadAlreadyUsed,
        file.status === 'uploaded'
          ? 'This upload link was already used; ask for a new one to upload another file.'
          : 'An upload through this link is already in progress.',
      );
    }
    let accepted = false;
    try {
      const receipt = await this.#store(file, body, this.storage);
      accepted = true;
      return receipt;
    } finally {
      if (!accepted) {
        await this.prisma.client.file.update({
          where: { id: file.id },
          data: { status: 'awaiting_upload' },
          select: { id: true },
        });
      }
    }
  }

  /**
   * With a store that takes uploads directly (S3), the API first sees the bytes when the
   * watermark request arrives: the same checks run then, on the stored object.
   */
  async confirmStoredUpload(file: UploadFile): Promise<UploadFile> {
    const size = await this.storage.size(file.storageKey);
    if (size === null) {
      throw new ProblemException(
        problemTypes.fileNotUploaded,
        'Upload the file before asking to watermark it.',
      );
    }
    if (size > this.config.UPLOAD_MAX_BYTES) {
      await this.storage.delete(file.storageKey);
      throw tooLarge(this.config.UPLOAD_MAX_BYTES);
    }
    const bytes = await this.storage.read(file.storageKey);
    this.#checkRealType(bytes.subarray(0, 64), file.contentType);
    return this.prisma.client.file.update({
      where: { id: file.id },
      data: {
        status: 'uploaded',
        sizeBytes: size,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        detectedContentType: file.contentType,
        uploadedAt: new Date(),
      },
      select: UPLOAD_FILE_COLUMNS,
    });
  }

  async #store(file: UploadFile, body: Readable, storage: LocalStorage): Promise<UploadReceipt> {
    let upload: Awaited<ReturnType<LocalStorage['receive']>>;
    try {
      upload = await storage.receive(file.storageKey, body, this.config.UPLOAD_MAX_BYTES);
    } catch (error) {
      if (error instanceof UploadTooLargeError) throw tooLarge(error.maxBytes);
      throw error;
    }
    try {
      this.#checkRealType(upload.head, file.contentType);
    } catch (error) {
      await upload.discard();
      throw error;
    }
    await upload.commit();
    await this.prisma.client.file.update({
      where: { id: file.id },
      data: {
        status: 'uploaded',
        sizeBytes: upload.sizeBytes,
        sha256: upload.sha256,
        detectedContentType: file.contentType,
        uploadedAt: new Date(),
      },
      select: { id: true },
    });
    return {
      fileId: file.id,
      contentType: file.contentType,
      sizeBytes: upload.sizeBytes,
      sha256: upload.sha256,
    };
  }

  #checkRealType(head: Uint8Array, declared: string): void {
    const actual = sniffImageFormat(head);
    if (actual.image && actual.mimeType === declared) return;
    throw new ProblemException(
      problemTypes.unsupportedMediaType,
      actual.image
        ? `The bytes are ${actual.mimeType}, not the declared ${declared}.`
        : `The bytes are not a ${declared} image (${actual.format === 'unknown' ? 'no known image signature' : `they look like ${actual.format}`}).`,
    );
  }
}

function tooLarge(maxBytes: number): ProblemException {
  return new ProblemException(
    problemTypes.payloadTooLarge,
    `Files may be at most ${maxBytes} bytes.`,
    undefined,
    { connection: 'close' },
  );
}
