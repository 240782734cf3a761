import { type Address, getAddress, type Hex, isAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/**
 * Everything a process needs to mint and read Hallmark NFTs on one chain. The development chain
 * produces it (`ensureDevChain`); in production it comes from configuration.
 */
export interface ChainOptions {
  /** JSON-RPC endpoint (HTTP). */
  rpcUrl: string;
  /** Expected chain id; signed transactions carry it, so a wrong one cannot mint elsewhere. */
  chainId: number;
  /** The deployed HallmarkProvenance contract. */
  contractAddress: Address;
  /** The contract owner's private key: the only key allowed to mint. Never log it. */
  minterKey: Hex;
  /** Marketplace or explorer page of a token, with `{chain}`, `{chainId}`, `{contract}`, `{tokenId}`. */
  marketplaceUrlTemplate?: string;
  /** Owner of tokens minted for API keys without a wallet; defaults to the minter's address. */
  custodyAddress?: Address;
  /** Block the contract was deployed in: where searches for mint events start. */
  deploymentBlock?: bigint;
}

/** The service's custody wallet: the configured one, else the minter's own address. */
export function custodyAddressOf(
  options: Pick<ChainOptions, 'custodyAddress' | 'minterKey'>,
): Address {
  if (options.custodyAddress) return getAddress(options.custodyAddress);
  return privateKeyToAccount(options.minterKey).address;
}

/**
 * Who receives a new token: the wallet configured on the API key when there is one, otherwise the
 * service's custody wallet (which can later transfer it to the creator).
 */
export function resolveTokenOwner(input: {
  apiKeyWallet?: string | null;
  custodyAddress: Address;
}): Address {
  const wallet = input.apiKeyWallet?.trim();
  if (!wallet) return getAddress(input.custodyAddress);
  if (!isAddress(wallet, { strict: false })) {
    throw new Error(`the API key's wallet ${wallet} is not an address`);
  }
  return getAddress(wallet);
}
