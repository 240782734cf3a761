import { EmbeddedIpfs } from './embedded-ipfs.ts';
import type { IpfsStore } from './ipfs-store.ts';
import { KuboIpfs } from './kubo-ipfs.ts';
import { PinningService, type PinningServiceOptions } from './pinning-service.ts';

export type IpfsStoreOptions =
  | {
      readonly driver: 'embedded';
      /** Where the node keeps its blocks; the service passes `<HALLMARK_DATA_DIR>/ipfs`. */
      readonly directory: string;
    }
  | {
      readonly driver: 'kubo';
      /** Base URL of Kubo's RPC API, e.g. `http://127.0.0.1:5001`. */
      readonly apiUrl: string;
      readonly authorization?: string | undefined;
      readonly timeoutMs?: number | undefined;
      /**
       * A remote pinning service (IPFS Pinning Service API). Only with Kubo: the service fetches
       * the content over the IPFS network, which the embedded node never joins.
       */
      readonly pinning?: PinningServiceOptions | undefined;
    };

/** Opens the configured driver. The embedded node is started and ready when this resolves. */
export async function createIpfsStore(options: IpfsStoreOptions): Promise<IpfsStore> {
  switch (options.driver) {
    case 'embedded':
      return EmbeddedIpfs.open(options.directory);
    case 'kubo':
      return new KuboIpfs({
        apiUrl: options.apiUrl,
        authorization: options.authorization,
        timeoutMs: options.timeoutMs,
        pinning: options.pinning === undefined ? undefined : new PinningService(options.pinning),
      });
  }
}
