import { ChainError } from '@hallmark/chain';
import { type HallmarkConfig, type Logger } from '@hallmark/config';
import {
  type ClaimedTransfer,
  claimTransfer,
  confirmTransfer,
  failTransfer,
  forgetTransferTransaction,
  recordTransferTransaction,
  releaseTransfer,
  renewTransferLease,
} from '@hallmark/db';
import { CONFIG, LOGGER, PrismaService } from '@hallmark/runtime';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Address, Hash, Hex } from 'viem';
import { LeaseKeeper } from '../lease-keeper.ts';
import { PeriodicTask } from '../periodic-task.ts';
import { NftMinter } from './nft-minter.ts';

const POLL_MS = 1_000;
const MAX_ATTEMPTS = 5;
const RETRY_MS = 15_000;
const MAX_RETRY_MS = 15 * 60_000;

/**
 * Moves tokens out of the custody wallet (`POST /nft/{tokenId}/transfer`), one at a time per
 * worker. The transaction is recorded before it is broadcast; a later claim of the same row
 * re-sends those bytes (harmless: same nonce) and waits for them, so a transfer is sent once
 * whatever crashes. The lease is kept (renewed) while the chain is awaited; a run that lost it
 * leaves the row to the run that holds it.
 */
@Injectable()
export class NftTransfers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly #task: PeriodicTask;

  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly prisma: PrismaService,
    private readonly minter: NftMinter,
  ) {
    this.#task = new PeriodicTask(
      POLL_MS,
      () => this.tick(),
      (error) => this.logger.error({ err: error }, 'nft transfer pass failed; retrying'),
    );
  }

  onApplicationBootstrap(): void {
    if (this.minter.registry !== null) this.#task.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.#task.stop();
  }

  async tick(): Promise<void> {
    const transfer = await claimTransfer(this.prisma.sql, this.config.JOB_LOCK_MS);
    if (transfer === null) return;
    const keeper = new LeaseKeeper(
      {
        what: `transfer ${transfer.id}`,
        lease: transfer,
        renew: () => renewTransferLease(this.prisma.sql, transfer, this.config.JOB_LOCK_MS),
      },
      this.config.JOB_LOCK_MS,
    );
    try {
      await this.#run(transfer, keeper);
    } catch (error) {
      // Another worker holds the transfer now: it decides how it ends.
      if (keeper.lost) return;
      await this.#settleFailure(transfer, error);
    } finally {
      keeper.stop();
    }
  }

  async #run(transfer: ClaimedTransfer, keeper: LeaseKeeper<ClaimedTransfer>): Promise<void> {
    const registry = this.minter.registry;
    if (registry === null) throw new ChainError('misconfigured', 'no chain to transfer on');
    let txHash = transfer.txHash as Hash | null;
    if (txHash === null || transfer.rawTransaction === null) {
      const signed = await registry.sendTransfer({
        tokenId: BigInt(transfer.tokenId),
        to: transfer.toAddress as Address,
        // Throwing here keeps the transaction from ever being sent.
        beforeBroadcast: async (candidate) => {
          keeper.confirm(
            await recordTransferTransaction(
              this.prisma.sql,
              transfer,
              candidate.txHash,
              candidate.rawTransaction,
            ),
          );
        },
      });
      txHash = signed.txHash;
    } else {
      await registry.rebroadcast(transfer.rawTransaction as Hex);
    }
    keeper.assertHeld();
    await registry.waitForTransfer(txHash);
    if (await confirmTransfer(this.prisma.sql, transfer)) {
      this.logger.info(
        { transferId: transfer.id, tokenId: transfer.tokenId, txHash },
        'nft transferred',
      );
    }
  }

  async #settleFailure(transfer: ClaimedTransfer, error: unknown): Promise<void> {
    const code = error instanceof ChainError ? error.code : 'internal_error';
    this.logger.warn({ err: error, transferId: transfer.id, code }, 'nft transfer attempt failed');
    if (code === 'nonce_conflict') {
      // The recorded transaction can never be mined: the next try signs a new one.
      await forgetTransferTransaction(this.prisma.sql, transfer);
    }
    // Reverted: refused by the simulation before signing, or mined and reverted.
    const reverted = code === 'mint_reverted';
    const permanent = reverted || code === 'misconfigured';
    if (permanent || transfer.attempts >= MAX_ATTEMPTS) {
      const failed = await failTransfer(this.prisma.sql, transfer, {
        code: permanent ? 'transfer_reverted' : 'transfer_failed',
        message: permanent
          ? 'The chain refused the transfer (is the token still in the custody wallet?).'
          : `The transfer did not go through after ${MAX_ATTEMPTS} tries.`,
        settled: reverted,
      });
      if (failed) return;
      // Its transaction is out there and may still be mined: it stays `sent`, watched less
      // often, until the chain mines it or takes its nonce for another.
      this.logger.warn(
        { transferId: transfer.id, attempts: transfer.attempts },
        'nft transfer not mined yet; its sent transaction is still watched',
      );
    }
    await releaseTransfer(this.prisma.sql, transfer, retryDelayMs(transfer.attempts));
  }
}

/** After the tries a transfer is given, a sent one is watched less and less often. */
export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_MS * 2 ** Math.max(0, attempts - MAX_ATTEMPTS), MAX_RETRY_MS);
}
