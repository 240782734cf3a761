import { NftRegistry } from '@hallmark/chain';
import {
  type ChainReadOptions,
  CONFIG,
  chainReadOptions,
  type HallmarkConfig,
} from '@hallmark/platform';
import { Inject, Injectable } from '@nestjs/common';

/** Reads tokens from the configured chain; the API never holds the minter key. */
@Injectable()
export class ChainService {
  readonly options: ChainReadOptions | null;
  readonly registry: NftRegistry | null;

  constructor(@Inject(CONFIG) config: HallmarkConfig) {
    this.options = chainReadOptions(config);
    this.registry = this.options === null ? null : new NftRegistry(this.options);
  }
}
