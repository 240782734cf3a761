import {
  type Address,
  createWalletClient,
  custom,
  getAddress,
  type Hash,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ChainError, classifyChainError } from './chain-error.ts';
import { createChainClient, type RpcOptions } from './clients.ts';
import {
  hallmarkProvenanceAbi as abi,
  hallmarkProvenanceBytecode as bytecode,
} from './generated/hallmark-provenance.ts';

export interface Deployment {
  contractAddress: Address;
  /** Where searches for the contract's events can start. */
  blockNumber: bigint;
  txHash: Hash;
}

/**
 * Deploys HallmarkProvenance from `deployerKey` and waits until it is mined. The minter (the
 * contract's owner, the only key that mints) defaults to the deployer.
 */
export async function deployProvenanceContract(
  options: RpcOptions & { deployerKey: Hex; minter?: Address },
): Promise<Deployment> {
  const client = createChainClient(options);
  const account = privateKeyToAccount(options.deployerKey);
  const wallet = createWalletClient({
    account,
    chain: client.chain,
    transport: custom(client, { retryCount: 0 }),
  });
  let receipt: TransactionReceipt;
  try {
    const hash = await wallet.deployContract({
      abi,
      bytecode,
      args: [getAddress(options.minter ?? account.address)],
    });
    receipt = await client.waitForTransactionReceipt({ hash });
  } catch (error) {
    throw classifyChainError(error);
  }
  if (receipt.status !== 'success' || !receipt.contractAddress) {
    throw new ChainError('rpc_error', `deployment ${receipt.transactionHash} failed on chain`);
  }
  return {
    contractAddress: getAddress(receipt.contractAddress),
    blockNumber: receipt.blockNumber,
    txHash: receipt.transactionHash,
  };
}
