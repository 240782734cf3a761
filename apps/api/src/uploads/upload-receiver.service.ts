import type { Readable } from 'node:stream';
import { type HallmarkConfig, staleUploadBound } from '@hallmark/config';
import {
  claimUpload,
  completeUpload,
  findFileByStorageKey,
  releaseUpload,
  type UploadFile,
} from '@hallmark/db';
import { CONFIG, OBJECT_STORAGE, PrismaService } from '@hallmark/runtime';
import { storedBytes } from '@hallmark/runtime/metrics';
import { id3TagLength, mediaTypeOf, problemTypes, sniffMediaFormat } from '@hallmark/schemas';
import {
  type ObjectStorage,
  type ReceivedUpload,
  StorageFullError,
  UploadTooLargeError,
} from '@hallmark/storage';
import { Inject, Injectable } from '@nestjs/common';
import { ProblemException } from '../problem/problem.exception.ts';
import { bodyChunks } from '../problem/unread-bodies.ts';

export interface UploadReceipt {
  fileId: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
}

function declaredType(header: string | undefined): string {
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

  /** the bytes stream through the API into the store. */
  async receive(
    key: string,
    contentTypeHeader: string | undefined,
    body: Readable,
  ): Promise<UploadReceipt> {
    const declared = declaredType(contentTypeHeader);
    // Claiming the row before any byte is read makes the link single-use even under concurrent
    // PUTs; only a refused claim reads the row again, to say why.
    const file =
      (await claimUpload(this.prisma.sql, key, declared, staleUploadBound(this.config))) ??
      (await this.#unclaimable(key, declared));
    let accepted = false;
    try {
      const receipt = await this.#store(file, body);
      accepted = true;
      return receipt;
    } finally {
      if (!accepted) await releaseUpload(this.prisma.sql, file.id);
    }
  }

  async #store(file: UploadFile, body: Readable): Promise<UploadReceipt> {
    let upload: ReceivedUpload;
    try {
      upload = await this.storage.receive(
        file.storageKey,
        bodyChunks(body),
        maxBytesOf(file.contentType, this.config),
        file.contentType,
      );
    } catch (error) {
      if (error instanceof UploadTooLargeError) throw tooLarge(error.maxBytes, file.contentType);
      if (error instanceof StorageFullError) {
        throw new ProblemException(
          problemTypes.storageFull,
          'The service cannot store more files now; try again later or tell its operator.',
        );
      }
      throw error;
    }
    try {
      await this.#checkRealType(upload, file.contentType);
    } catch (error) {
      await upload.discard();
      throw error;
    }
    await upload.commit();
    storedBytes.inc({ store: 'storage' }, upload.sizeBytes);
    await completeUpload(this.prisma.sql, file.id, {
      sizeBytes: upload.sizeBytes,
      sha256: upload.sha256,
      detectedContentType: file.contentType,
    });
    return {
      fileId: file.id,
      contentType: file.contentType,
      sizeBytes: upload.sizeBytes,
      sha256: upload.sha256,
    };
  }

  /** Why the upload at `key` could not be claimed, as the problem to answer. */
  async #unclaimable(key: string, declared: string): Promise<never> {
    const file = await findFileByStorageKey(this.prisma.sql, key);
    if (file === null) throw ProblemException.notFound('No upload is expected at this link.');
    if (declared !== file.contentType) {
      throw new ProblemException(
        problemTypes.validationError,
        `Content-Type must be ${file.contentType}, as declared for this upload; got ${declared || 'none'}.`,
        [{ path: 'Content-Type', message: `Expected ${file.contentType}` }],
      );
    }
    throw new ProblemException(
      problemTypes.uploadAlreadyUsed,
      file.status === 'uploaded'
        ? 'This upload link was already used; ask for a new one to upload another file.'
        : 'An upload through this link is already in progress.',
    );
  }

  async #checkRealType(upload: ReceivedUpload, declared: string): Promise<void> {
    // A signed FLAC opens with an ID3 tag holding its manifest: the audio after it tells.
    const tag = id3TagLength(upload.head);
    const afterTag = tag === undefined ? undefined : await upload.readAt(tag, 4);
    const actual = sniffMediaFormat(upload.head, afterTag);
    if (actual.known && actual.type.mimeType === declared) return;
    throw new ProblemException(
      problemTypes.unsupportedMediaType,
      actual.known
        ? `The bytes are ${actual.type.mimeType}, not the declared ${declared}.`
        : `The bytes are not ${declared} (${actual.format === 'unknown' ? 'no known signature' : `they look like ${actual.format}`}).`,
    );
  }
}

/** A movie is signed in bounded memory and may be far larger than what is held whole. */
function maxBytesOf(
  contentType: string,
  config: Pick<HallmarkConfig, 'UPLOAD_MAX_BYTES' | 'MEDIA_UPLOAD_MAX_BYTES'>,
): number {
  return mediaTypeOf(contentType)?.streamed === true
    ? config.MEDIA_UPLOAD_MAX_BYTES
    : config.UPLOAD_MAX_BYTES;
}

function tooLarge(maxBytes: number, contentType: string): ProblemException {
  return new ProblemException(
    problemTypes.payloadTooLarge,
    `Files of type ${contentType} may be at most ${maxBytes} bytes.`,
  );
}
