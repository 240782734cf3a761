import { type ChainOptions, loadMinterKey } from '@hallmark/chain';
import type { HallmarkConfig } from '@hallmark/config';

/** What reading tokens needs: no key. The API holds only this. */
export type ChainReadOptions = Omit<ChainOptions, 'minterKey'>;

/**
 * The chain NFTs live on, or null when none is configured (jobs asking for an NFT then fail
 * with `nft_unavailable`). `pnpm start` fills these variables from the local development chain
 * when the operator set none.
 */
export function chainReadOptions(config: HallmarkConfig): ChainReadOptions | null {
  if (
    config.CHAIN_RPC_URL === undefined ||
    config.CHAIN_ID === undefined ||
    config.CHAIN_CONTRACT_ADDRESS === undefined
  ) {
    return null;
  }
  return {
    rpcUrl: config.CHAIN_RPC_URL,
    chainId: config.CHAIN_ID,
    contractAddress: config.CHAIN_CONTRACT_ADDRESS as `0x${string}`,
    ...(config.NFT_MARKETPLACE_URL_TEMPLATE === undefined
      ? {}
      : { marketplaceUrlTemplate: config.NFT_MARKETPLACE_URL_TEMPLATE }),
    ...(config.NFT_CUSTODY_ADDRESS === undefined
      ? {}
      : { custodyAddress: config.NFT_CUSTODY_ADDRESS as `0x${string}` }),
  };
}

/** The minting worker's options: the read options plus the minter key (file or environment). */
export async function chainMintOptions(config: HallmarkConfig): Promise<ChainOptions | null> {
  const read = chainReadOptions(config);
  if (read === null) return null;
  const minterKey = await loadMinterKey({
    file: config.CHAIN_MINTER_KEY_FILE,
    env: config.CHAIN_MINTER_KEY,
  });
  return { ...read, minterKey };
}
