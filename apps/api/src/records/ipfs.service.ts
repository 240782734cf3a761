import type { IpfsStore } from '@hallmark/ipfs';
import { CONFIG, type HallmarkConfig, openIpfsStore } from '@hallmark/platform';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';

/** The API's IPFS node, opened on first use (most requests never need it). */
@Injectable()
export class IpfsService implements OnApplicationShutdown {
  #store: Promise<IpfsStore> | undefined;

  constructor(@Inject(CONFIG) private readonly config: HallmarkConfig) {}

  store(): Promise<IpfsStore> {
    this.#store ??= openIpfsStore(this.config);
    return this.#store;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.#store !== undefined) await (await this.#store).close();
  }
}
