import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ApiLinks } from './api-links.ts';
import { describeFile, readRange, streamToFile } from './file-transfer.ts';
import type { LinkSigner } from './link-signer.ts';
import { assertObjectKey, fileNameOfKey } from './object-key.ts';
import type {
  DownloadLinkOptions,
  ObjectDownload,
  ObjectStorage,
  ReceivedUpload,
  StoredObject,
} from './object-storage.ts';
import { receiveToFile, removeStaleTemporaries, temporaryNameFor } from './receive-to-file.ts';

export interface S3StorageOptions {
  readonly bucket: string;
  readonly region: string;
  readonly endpoint?: string | undefined;
  readonly accessKeyId?: string | undefined;
  readonly secretAccessKey?: string | undefined;
  readonly forcePathStyle?: boolean | undefined;
  /** Where the API's links point (`{baseUrl}/storage/...`) and the key that signs them. */
  readonly baseUrl: string;
  readonly signer: LinkSigner;
  /** A local folder for uploads on their way to the store. */
  readonly scratchDir: string;
}

/** A redirect only has to survive the client following it. */
const REDIRECT_TTL_SECONDS = 60;

/**
 * Any S3-compatible store (AWS, MinIO, R2, ...). Clients never see the store's own presigned
 * links: they get the API's (ApiLinks, with the API's `signature` parameter). A valid upload
 * link's body streams through the API, which caps its size, checks its type by magic bytes and
 * makes the link single-use exactly as with local disk, into a scratch file and on to the store;
 * a valid download link redirects to a presigned GET of the store that lives a minute.
 */
export class S3Storage implements ObjectStorage {
  readonly driver = 's3';
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #links: ApiLinks;
  readonly #scratchDir: string;

  constructor(options: S3StorageOptions) {
    this.#bucket = options.bucket;
    this.#links = new ApiLinks(options);
    this.#scratchDir = options.scratchDir;
    this.#client = new S3Client({
      region: options.region,
      ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
      forcePathStyle: options.forcePathStyle ?? false,
      // Newer SDKs add CRC checksums to every upload by default; many S3-compatible stores
      // do not accept them.
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

  async uploadLink(key: string, _contentType: string, expiresAt: Date): Promise<string> {
    return this.#links.upload(key, expiresAt);
  }

  async downloadLink(key: string, options: DownloadLinkOptions): Promise<string> {
    return this.#links.download(key, options.expiresAt);
  }

  async receive(
    key: string,
    body: AsyncIterable<Uint8Array>,
    maxBytes: number,
    contentType: string,
  ): Promise<ReceivedUpload> {
    assertObjectKey(key);
    await mkdir(this.#scratchDir, { recursive: true });
    const temporary = temporaryNameFor(join(this.#scratchDir, 'upload'), 'upload');
    const received = await receiveToFile(temporary, body, maxBytes);
    const discard = () => rm(temporary, { force: true });
    return {
      ...received,
      readAt: (offset, length) => readRange(temporary, offset, length),
      commit: async () => {
        try {
          await this.#client.send(
            new PutObjectCommand({
              Bucket: this.#bucket,
              Key: key,
              Body: createReadStream(temporary),
              ContentLength: received.sizeBytes,
              ContentType: contentType,
            }),
          );
        } finally {
          await discard();
        }
      },
      discard,
    };
  }

  /** A presigned GET of the store, valid for a minute: the API answers with a redirect. */
  async download(key: string, contentType: string): Promise<ObjectDownload | null> {
    if ((await this.size(key)) === null) return null;
    const command = new GetObjectCommand({
      Bucket: this.#bucket,
      Key: assertObjectKey(key),
      ResponseContentType: contentType,
      ResponseContentDisposition: `attachment; filename="${fileNameOfKey(key)}"`,
    });
    return {
      kind: 'redirect',
      url: await getSignedUrl(this.#client, command, { expiresIn: REDIRECT_TTL_SECONDS }),
    };
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

  async readToFile(key: string, path: string): Promise<StoredObject> {
    const response = await this.#client.send(
      new GetObjectCommand({ Bucket: this.#bucket, Key: assertObjectKey(key) }),
    );
    if (!(response.Body instanceof Readable)) throw new Error(`no body stream for ${key}`);
    return streamToFile(response.Body, path);
  }

  async writeFromFile(key: string, path: string, contentType: string): Promise<StoredObject> {
    // Hashed first: the store needs the length up front, and the digest is the stored object's.
    const stored = await describeFile(path);
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: assertObjectKey(key),
        Body: createReadStream(path),
        ContentLength: stored.sizeBytes,
        ContentType: contentType,
      }),
    );
    return stored;
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

  removeStaleTemporaries(olderThan: Date): Promise<number> {
    return removeStaleTemporaries(this.#scratchDir, olderThan);
  }
}
