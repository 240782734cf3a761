export { ApiLinks } from './api-links.ts';
export { decodeLinkKey } from './link-path.ts';
export { type LinkClaims, type LinkMethod, LinkSigner, type LinkVerdict } from './link-signer.ts';
export { LocalStorage } from './local-storage.ts';
export {
  assertObjectKey,
  fileNameOfKey,
  InvalidObjectKeyError,
  safeFileName,
} from './object-key.ts';
export type {
  DownloadLinkOptions,
  ObjectDownload,
  ObjectStorage,
  ReceivedUpload,
  StoredObject,
} from './object-storage.ts';
export { UploadTooLargeError } from './receive-to-file.ts';
export { S3Storage, type S3StorageOptions } from './s3-storage.ts';
export { StorageFullError } from './storage-full.ts';
