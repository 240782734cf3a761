import type { Address, Hash, Hex } from 'viem';

/** A mint signed by the minter: enough to send it again, byte for byte, after a crash. */
export interface SignedMint {
  txHash: Hash;
  /** The signed transaction. Re-broadcasting it can never mint twice: its nonce is fixed. */
  rawTransaction: Hex;
  nonce: number;
}

export interface MintRequest {
  /** Receives the token (see `resolveTokenOwner`). */
  to: Address;
  /** `ipfs://<metadataCid>`. */
  tokenUri: string;
  /**
   * Runs after signing and before broadcasting; the mint is sent only if it resolves. Record the
   * hash and raw transaction here, so a crash at any later point is recovered by looking the hash
   * up (and re-sending the same bytes) instead of minting again.
   */
  beforeBroadcast?: (signed: SignedMint) => Promise<void>;
}

/** A mined mint, with what a job records about it. */
export interface MintedToken {
  contractAddress: Address;
  tokenId: bigint;
  owner: Address;
  txHash: Hash;
  blockNumber: bigint;
  /** Unix seconds of the block that holds the mint. */
  blockTime: number;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  /** gasUsed × effectiveGasPrice: the execution fee paid by the minter (L1 data fees of rollups excluded). */
  feeWei: bigint;
}

/** A transfer of a token out of the minter's wallet (the custody wallet). */
export interface TransferRequest {
  tokenId: bigint;
  to: Address;
  /** As for a mint: record the signed transaction before it is sent. */
  beforeBroadcast?: (signed: SignedMint) => Promise<void>;
}
