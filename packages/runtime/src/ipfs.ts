import { resolve } from 'node:path';
import type { HallmarkConfig } from '@hallmark/config';
import { createIpfsStore, type IpfsStore } from '@hallmark/ipfs';

/**
 * The configured IPFS driver. With the embedded node, api and worker open the same block folder:
 * blocks are content-addressed files written once, so two processes share it safely.
 */
export function openIpfsStore(config: HallmarkConfig): Promise<IpfsStore> {
  if (config.IPFS_DRIVER === 'kubo') {
    return createIpfsStore({
      driver: 'kubo',
      apiUrl: config.IPFS_KUBO_URL ?? '',
      pinning:
        config.IPFS_PINNING_ENDPOINT !== undefined && config.IPFS_PINNING_TOKEN !== undefined
          ? { endpoint: config.IPFS_PINNING_ENDPOINT, token: config.IPFS_PINNING_TOKEN }
          : undefined,
    });
  }
  return createIpfsStore({
    driver: 'embedded',
    directory: resolve(config.HALLMARK_DATA_DIR, 'ipfs'),
  });
}
