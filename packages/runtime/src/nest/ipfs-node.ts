import type { HallmarkConfig } from '@hallmark/config';
import type { IpfsStore } from '@hallmark/ipfs';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { openIpfsStore } from '../ipfs.ts';
import { CONFIG } from './tokens.ts';

/**
 * The process's IPFS node (embedded helia or Kubo), opened on first use: most requests and jobs
 * never need it, and an embedded node holds its repository's lock while open.
 */
@Injectable()
export class IpfsNode implements OnApplicationShutdown {
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
