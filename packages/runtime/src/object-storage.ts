import { resolve } from 'node:path';
import { type HallmarkConfig, publicBaseUrl } from '@hallmark/config';
import type { ServiceKeys } from '@hallmark/service-keys';
import { LinkSigner, LocalStorage, type ObjectStorage, S3Storage } from '@hallmark/storage';

/** The storage driver the configuration names; api and worker must build it the same way. */
export function createObjectStorage(config: HallmarkConfig, keys: ServiceKeys): ObjectStorage {
  const links = { baseUrl: publicBaseUrl(config), signer: new LinkSigner(keys.linkSigning) };
  if (config.STORAGE_DRIVER === 's3') {
    return new S3Storage({
      ...links,
      scratchDir: resolve(config.HALLMARK_DATA_DIR, 'tmp', 's3-uploads'),
      bucket: config.S3_BUCKET ?? '',
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return new LocalStorage({
    root: resolve(config.HALLMARK_DATA_DIR, 'objects'),
    ...links,
  });
}
