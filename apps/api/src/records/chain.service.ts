import { NftRegistry } from '@hallmark/chain';
import { type HallmarkConfig } from '@hallmark/config';
import { type ChainReadOptions, CONFIG, chainReadOptions } from '@hallmark/runtime';
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
