import { type HallmarkConfig, type Logger } from '@hallmark/config';
import { CONFIG, LOGGER, PrismaService } from '@hallmark/runtime';
import { Inject, Injectable } from '@nestjs/common';
import { withTimeout } from '../health/with-timeout.ts';
import { ChainService } from './chain.service.ts';

/** A chain that does not answer in this time is treated as down for this refresh. */
const READ_TIMEOUT_MS = 5_000;

/**
 * Re-reads NFT owners from the chain behind the reads that serve them. A read never waits for it:
 * it answers with the owner it has and asks for a refresh when that copy is older than
 * NFT_OWNER_REFRESH_SECONDS. One refresh per token at a time per instance; a failed one is
 * logged (once until the chain answers again) and tried on a later read.
 */
@Injectable()
export class NftOwnerRefresher {
  readonly #inFlight = new Set<string>();
  readonly #maxAgeMs: number;
  #chainDown = false;

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly prisma: PrismaService,
    private readonly chain: ChainService,
  ) {
    this.#maxAgeMs = config.NFT_OWNER_REFRESH_SECONDS * 1000;
  }

  isStale(checkedAt: Date, now = Date.now()): boolean {
    return now - checkedAt.getTime() > this.#maxAgeMs;
  }

  /** Starts a refresh of the token's owner unless one runs; never throws, never awaited. */
  refresh(nft: { readonly id: string; readonly tokenId: string }): void {
    const registry = this.chain.registry;
    if (registry === null || this.#inFlight.has(nft.id)) return;
    this.#inFlight.add(nft.id);
    const checkedAt = new Date();
    void withTimeout(registry.ownerOf(BigInt(nft.tokenId)), READ_TIMEOUT_MS, 'the chain')
      .then(async (owner) => {
        if (this.#chainDown) this.logger.info('nft owner refresh: the chain answers again');
        this.#chainDown = false;
        if (owner === null) return;
        // A newer reading (another instance) is never replaced by an older one.
        await this.prisma.client.nft.updateMany({
          where: {
            id: nft.id,
            OR: [{ ownerCheckedAt: null }, { ownerCheckedAt: { lt: checkedAt } }],
          },
          data: { owner, ownerCheckedAt: checkedAt },
        });
      })
      .catch((error: unknown) => {
        if (!this.#chainDown) {
          this.logger.warn(
            { err: (error as Error).message },
            'nft owner refresh failed; serving the last known owners',
          );
        }
        this.#chainDown = true;
      })
      .finally(() => {
        this.#inFlight.delete(nft.id);
      });
  }
}
