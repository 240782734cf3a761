import { createHash } from 'node:crypto';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertObjectKey, fileNameOfKey } from './object-key.ts';
import type { DownloadLinkOptions, ObjectStorage, StoredObject } from './object-storage.ts';

export interface S3StorageOptions {
  readonly bucket: string;
  readonly region: string;
  readonly endpoint?: string | undefined;
  readonly accessKeyId?: string | undefined;
  readonly secretAccessKey?: string | undefined;
  readonly forcePathStyle?: boolean | undefined;
}

function secondsUntil(date: Date): number {
  return Math.max(1, Math.floor((date.getTime() - Date.now()) / 1000));
}

/**
 * Any S3-compatible store (AWS, MinIO, R2, ...). Links are presigned by the store: the upload
 * link signs `Content-Type`, so the store refuses a PUT with another type. Unlike the local
 * driver it cannot cap the size or make a link single-use; the API checks the stored object's
 * size and type when the watermark request arrives instead.
 */
export class S3Storage implements ObjectStorage {
  readonly driver = 's3';
  readonly #client: S3Client;
  readonly #bucket: string;

  constructor(options: S3StorageOptions) {
    this.#bucket = options.bucket;
    this.#client = new S3Client({
      region: options.region,
      ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
      forcePathStyle: options.forcePathStyle ?? false,
      // Newer SDKs add CRC checksums to every upload by default; many S3-compatible stores
      // (and presigned browser uploads) do not send or accept them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(options.accessKeyId !== undefined && options.secretAccessKey !== undefined
        ? {
            credentials: {
              accessKeyId: options.accessKeyId,
              secretAccessKey: options.secretAccessKey,
            },
          }
        : {}),
    });
  }

  async uploadLink(key: string, contentType: string, expiresAt: Date): Promise<string> {
    const command = new PutObjectCommand({
      Bucket: this.#bucket,
      Key: assertObjectKey(key),
      ContentType: contentType,
    });
    return getSignedUrl(this.#client, command, {
      expiresIn: secondsUntil(expiresAt),
      signableHeaders: new Set(['content-type']),
    });
  }

  async downloadLink(key: string, options: DownloadLinkOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.#bucket,
      Key: assertObjectKey(key),
      ResponseContentType: options.contentType,
      ResponseContentDisposition: `attachment; filename="${fileNameOfKey(key)}"`,
    });
    return getSignedUrl(this.#client, command, { expiresIn: secondsUntil(options.expiresAt) });
  }

  async read(key: string): Promise<Uint8Array> {
    const response = await this.#client.send(
      new GetObjectCommand({ Bucket: this.#bucket, Key: assertObjectKey(key) }),
    );
    if (response.Body === undefined) throw new Error(`empty body for ${key}`);
    return response.Body.transformToByteArray();
  }

  async write(key: string, bytes: Uint8Array, contentType: string): Promise<StoredObject> {
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: assertObjectKey(key),
        Body: bytes,
        ContentType: contentType,
      }),
    );
    return { sizeBytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }

  async size(key: string): Promise<number | null> {
    try {
      const head = await this.#client.send(
        new HeadObjectCommand({ Bucket: this.#bucket, Key: assertObjectKey(key) }),
      );
      return head.ContentLength ?? 0;
    } catch (error) {
      if (error instanceof NotFound || (error as { name?: string }).name === 'NotFound')
        return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.#client.send(
      new DeleteObjectCommand({ Bucket: this.#bucket, Key: assertObjectKey(key) }),
    );
  }
}
