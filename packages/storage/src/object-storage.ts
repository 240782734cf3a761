/** Facts about stored bytes, computed while they are written. */
export interface StoredObject {
  readonly sizeBytes: number;
  /** Hex SHA-256 of the bytes. */
  readonly sha256: string;
}

export interface DownloadLinkOptions {
  readonly expiresAt: Date;
  readonly contentType: string;
}

/**
 * Where files live. Keys look like `uploads/<fileId>/<name>`; the last segment is the file name
 * a download offers. Both drivers give out links a client uses without a bearer token: signed by
 * the service (local) or presigned by the store (S3).
 */
export interface ObjectStorage {
  readonly driver: 'local' | 's3';
  /** A link to PUT the bytes to, valid until `expiresAt`, for exactly this `contentType`. */
  uploadLink(key: string, contentType: string, expiresAt: Date): Promise<string>;
  /** A link to GET the bytes from, valid until `expiresAt`. */
  downloadLink(key: string, options: DownloadLinkOptions): Promise<string>;
  read(key: string): Promise<Uint8Array>;
  /** Writes (or overwrites: writing the same key twice leaves one object) the bytes. */
  write(key: string, bytes: Uint8Array, contentType: string): Promise<StoredObject>;
  /** Size of the object, or null when there is none. */
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
}
