import {
  type Account,
  type Address,
  BaseError,
  type Chain,
  ContractFunctionRevertedError,
  createWalletClient,
  custom,
  encodeFunctionData,
  getAddress,
  type Hash,
  type Hex,
  isAddressEqual,
  keccak256,
  parseEventLogs,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
  type Transport,
  type WalletClient,
  zeroAddress,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ChainError, classifyChainError } from './chain-error.ts';
import {
  type ChainPublicClient,
  createChainClient,
  pollingIntervalFor,
  type RpcOptions,
} from './clients.ts';
import { hallmarkProvenanceAbi as abi } from './generated/hallmark-provenance.ts';
import type { MintedToken, MintRequest, SignedMint, TransferRequest } from './mint.ts';
import { SerialQueue } from './serial-queue.ts';

export interface NftRegistryOptions extends RpcOptions {
  contractAddress: Address;
  /** Needed only to mint; a registry without it reads. */
  minterKey?: Hex;
  /** Where searches for mint events start (the deployment block); default 0. */
  deploymentBlock?: bigint;
  /** How long `waitForMint` waits for a receipt by default. Default 2 minutes. */
  mintWaitTimeoutMs?: number;
}

/**
 * The HallmarkProvenance contract on one chain, over viem: mints (signed locally with the
 * minter key) and reads tokens. Every failure surfaces as a `ChainError` with a stable code.
 *
 * Mints from one registry are serialised, because each takes the next nonce of the same key. Two
 * processes minting with one key can still collide; the loser gets `nonce_conflict` and signs
 * again, so run the mint step with a concurrency of one per key.
 */
export class NftRegistry {
  readonly contractAddress: Address;
  readonly chainId: number;
  readonly #client: ChainPublicClient;
  readonly #wallet: ChainWalletClient | undefined;
  readonly #deploymentBlock: bigint;
  readonly #mintWaitTimeoutMs: number;
  readonly #pollingIntervalMs: number;
  readonly #mints = new SerialQueue();

  constructor(options: NftRegistryOptions) {
    this.contractAddress = getAddress(options.contractAddress);
    this.chainId = options.chainId;
    this.#client = createChainClient(options);
    // The wallet client only signs (the account is local). It sends through the public client,
    // so nonce, gas and fee queries use the same endpoint, timeouts and retries.
    this.#wallet = options.minterKey
      ? createWalletClient({
          account: privateKeyToAccount(options.minterKey),
          chain: this.#client.chain,
          transport: custom(this.#client, { retryCount: 0 }),
        })
      : undefined;
    this.#deploymentBlock = options.deploymentBlock ?? 0n;
    this.#mintWaitTimeoutMs = options.mintWaitTimeoutMs ?? 120_000;
    this.#pollingIntervalMs = pollingIntervalFor(options);
  }

  /** The minter's address, or null for a read-only registry. */
  get minterAddress(): Address | null {
    return this.#wallet?.account.address ?? null;
  }

  /**
   * Fails fast on a wrong configuration: the node must be on the configured chain and the
   * contract must exist there.
   */
  async checkConnection(): Promise<void> {
    const [chainId, code] = await this.#call(() =>
      Promise.all([
        this.#client.getChainId(),
        this.#client.getCode({ address: this.contractAddress }),
      ]),
    );
    if (chainId !== this.chainId) {
      throw new ChainError(
        'misconfigured',
        `the RPC endpoint is on chain ${chainId}, not the configured ${this.chainId}`,
      );
    }
    if (!code || code === '0x') {
      throw new ChainError('misconfigured', `no contract at ${this.contractAddress}`);
    }
  }

  /**
   * Signs a mint, hands it to `beforeBroadcast`, then sends it, and returns as soon as the node
   * accepted it (not when it is mined: see `waitForMint`). The call is simulated first, so a key
   * that may not mint fails with `mint_reverted` and the contract's reason, before any fee.
   */
  async sendMint(request: MintRequest): Promise<SignedMint> {
    const wallet = this.#wallet;
    if (!wallet) throw new Error('this NftRegistry has no minter key');
    return this.#mints.run(async () => {
      const signed = await this.#call(() => this.#signMint(wallet, request));
      await request.beforeBroadcast?.(signed);
      await this.rebroadcast(signed.rawTransaction);
      return signed;
    });
  }

  /**
   * Signs a transfer of a token the minter's wallet holds, hands it to `beforeBroadcast`, then
   * sends it. Simulated first: a token the wallet does not hold fails with `mint_reverted` and
   * the contract's reason before any fee. Serialised with mints (one nonce sequence).
   */
  async sendTransfer(request: TransferRequest): Promise<SignedMint> {
    const wallet = this.#wallet;
    if (!wallet) throw new Error('this NftRegistry has no minter key');
    return this.#mints.run(async () => {
      const signed = await this.#call(async () => {
        const args = [wallet.account.address, getAddress(request.to), request.tokenId] as const;
        await this.#client.simulateContract({
          account: wallet.account,
          address: this.contractAddress,
          abi,
          functionName: 'transferFrom',
          args,
        });
        const prepared = await wallet.prepareTransactionRequest({
          to: this.contractAddress,
          data: encodeFunctionData({ abi, functionName: 'transferFrom', args }),
        });
        const rawTransaction = await wallet.signTransaction(prepared);
        return { txHash: keccak256(rawTransaction), rawTransaction, nonce: prepared.nonce };
      });
      await request.beforeBroadcast?.(signed);
      await this.rebroadcast(signed.rawTransaction);
      return signed;
    });
  }

  /** Waits for a transfer's receipt; a reverted one fails with `mint_reverted`. */
  async waitForTransfer(txHash: Hash, options: { timeoutMs?: number } = {}): Promise<bigint> {
    return this.#call(async () => {
      const receipt = await this.#client.waitForTransactionReceipt({
        hash: txHash,
        timeout: options.timeoutMs ?? this.#mintWaitTimeoutMs,
        pollingInterval: this.#pollingIntervalMs,
        checkReplacement: false,
      });
      if (receipt.status === 'reverted') {
        throw new ChainError('mint_reverted', `transfer ${txHash} reverted on chain`);
      }
      return receipt.blockNumber;
    });
  }

  /**
   * Sends a signed transaction (a mint or a transfer) again. Safe to repeat: a transaction the node already has (pending or
   * mined) is left alone, and the fixed nonce means the same bytes can never mint twice. Throws
   * `nonce_conflict` when another transaction took the nonce, so this one can never be mined.
   */
  async rebroadcast(rawTransaction: Hex): Promise<Hash> {
    const txHash = keccak256(rawTransaction);
    try {
      await this.#client.sendRawTransaction({ serializedTransaction: rawTransaction });
    } catch (error) {
      // "already known" / "nonce too low" also come back for our own transaction.
      if (await this.#call(() => this.#isKnown(txHash))) return txHash;
      throw classifyChainError(error);
    }
    return txHash;
  }

  /** Waits for the mint's receipt and reads the token from its Transfer event. */
  async waitForMint(txHash: Hash, options: { timeoutMs?: number } = {}): Promise<MintedToken> {
    return this.#call(async () => {
      const receipt = await this.#client.waitForTransactionReceipt({
        hash: txHash,
        timeout: options.timeoutMs ?? this.#mintWaitTimeoutMs,
        pollingInterval: this.#pollingIntervalMs,
        // A replacement would be another transaction: never report its token as this mint's.
        checkReplacement: false,
      });
      return this.#mintedToken(receipt);
    });
  }

  /**
   * The mint made by a recorded transaction, or null while it is pending or unknown to the node.
   * Crash recovery starts here: a token found this way must not be minted again.
   */
  async findMintByTxHash(txHash: Hash): Promise<MintedToken | null> {
    return this.#call(async () => {
      let receipt: TransactionReceipt;
      try {
        receipt = await this.#client.getTransactionReceipt({ hash: txHash });
      } catch (error) {
        if (isNotFound(error, TransactionReceiptNotFoundError)) return null;
        throw error;
      }
      return this.#mintedToken(receipt);
    });
  }

  /** What the minter's wallet holds, in wei: mints stop once it cannot pay their fees. */
  async minterBalance(): Promise<bigint> {
    const address = this.minterAddress;
    if (address === null) throw new Error('this NftRegistry has no minter key');
    return this.#client.getBalance({ address });
  }

  /** The token's current owner, read from the chain; null if no such token. */
  async ownerOf(tokenId: bigint): Promise<Address | null> {
    return this.#readToken(() =>
      this.#client.readContract({
        address: this.contractAddress,
        abi,
        functionName: 'ownerOf',
        args: [tokenId],
      }),
    );
  }

  /** The token's URI (`ipfs://<cid>`); null if no such token. */
  async tokenUri(tokenId: bigint): Promise<string | null> {
    return this.#readToken(() =>
      this.#client.readContract({
        address: this.contractAddress,
        abi,
        functionName: 'tokenURI',
        args: [tokenId],
      }),
    );
  }

  /** Unix seconds of the block holding the token's mint (its Transfer from the zero address). */
  async mintedAt(tokenId: bigint): Promise<number | null> {
    return this.#call(async () => {
      const [mint] = await this.#client.getContractEvents({
        address: this.contractAddress,
        abi,
        eventName: 'Transfer',
        args: { from: zeroAddress, tokenId },
        fromBlock: this.#deploymentBlock,
        toBlock: 'latest',
        strict: true,
      });
      if (!mint) return null;
      const block = await this.#client.getBlock({ blockNumber: mint.blockNumber });
      return Number(block.timestamp);
    });
  }

  /** How many tokens the contract ever minted (the newest token's id). */
  async totalMinted(): Promise<bigint> {
    return this.#call(() =>
      this.#client.readContract({
        address: this.contractAddress,
        abi,
        functionName: 'totalMinted',
      }),
    );
  }

  async #signMint(wallet: ChainWalletClient, request: MintRequest): Promise<SignedMint> {
    const args = [getAddress(request.to), request.tokenUri] as const;
    await this.#client.simulateContract({
      account: wallet.account,
      address: this.contractAddress,
      abi,
      functionName: 'mint',
      args,
    });
    const prepared = await wallet.prepareTransactionRequest({
      to: this.contractAddress,
      data: encodeFunctionData({ abi, functionName: 'mint', args }),
    });
    const rawTransaction = await wallet.signTransaction(prepared);
    return { txHash: keccak256(rawTransaction), rawTransaction, nonce: prepared.nonce };
  }

  async #mintedToken(receipt: TransactionReceipt): Promise<MintedToken> {
    if (receipt.status === 'reverted') {
      throw new ChainError('mint_reverted', `mint ${receipt.transactionHash} reverted on chain`);
    }
    const mints = parseEventLogs({ abi, eventName: 'Transfer', logs: receipt.logs }).filter(
      (log) => isAddressEqual(log.address, this.contractAddress) && log.args.from === zeroAddress,
    );
    const [mint] = mints;
    if (!mint || mints.length > 1) {
      throw new Error(
        `transaction ${receipt.transactionHash} is not a single mint of ${this.contractAddress}`,
      );
    }
    const block = await this.#client.getBlock({ blockNumber: receipt.blockNumber });
    return {
      contractAddress: this.contractAddress,
      tokenId: mint.args.tokenId,
      owner: getAddress(mint.args.to),
      txHash: receipt.transactionHash,
      blockNumber: receipt.blockNumber,
      blockTime: Number(block.timestamp),
      gasUsed: receipt.gasUsed,
      effectiveGasPrice: receipt.effectiveGasPrice,
      feeWei: receipt.gasUsed * receipt.effectiveGasPrice,
    };
  }

  async #isKnown(txHash: Hash): Promise<boolean> {
    try {
      await this.#client.getTransaction({ hash: txHash });
      return true;
    } catch (error) {
      if (isNotFound(error, TransactionNotFoundError)) return false;
      throw error;
    }
  }

  /** A read that reverts with ERC721NonexistentToken means "no such token", not a failure. */
  async #readToken<T>(read: () => Promise<T>): Promise<T | null> {
    return this.#call(async () => {
      try {
        return await read();
      } catch (error) {
        const revert =
          error instanceof BaseError
            ? error.walk((cause) => cause instanceof ContractFunctionRevertedError)
            : null;
        if (
          revert instanceof ContractFunctionRevertedError &&
          revert.data?.errorName === 'ERC721NonexistentToken'
        ) {
          return null;
        }
        throw error;
      }
    });
  }

  async #call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw classifyChainError(error);
    }
  }
}

type ChainWalletClient = WalletClient<Transport, Chain, Account>;

function isNotFound(error: unknown, type: abstract new (...args: never[]) => Error): boolean {
  return error instanceof BaseError && error.walk((cause) => cause instanceof type) !== null;
}
