import { type Chain, createPublicClient, http, type PublicClient, type Transport } from 'viem';
import { chainFor, LOCAL_CHAIN_IDS } from './networks.ts';

export interface RpcOptions {
  rpcUrl: string;
  chainId: number;
  /** Per request; a node that does not answer in time counts as unreachable. Default 10 s. */
  requestTimeoutMs?: number;
  /** Transport-level retries of a failed request before it surfaces. Default 2. */
  retryCount?: number;
  /** How often receipts are polled. Default 100 ms on a local node, 2 s elsewhere. */
  pollingIntervalMs?: number;
}

export type ChainPublicClient = PublicClient<Transport, Chain>;

export function pollingIntervalFor(options: RpcOptions): number {
  return options.pollingIntervalMs ?? (LOCAL_CHAIN_IDS.has(options.chainId) ? 100 : 2_000);
}

/** One read client per endpoint; signing happens locally, so no wallet RPC methods are needed. */
export function createChainClient(options: RpcOptions): ChainPublicClient {
  return createPublicClient({
    chain: chainFor(options.chainId, options.rpcUrl),
    pollingInterval: pollingIntervalFor(options),
    transport: http(options.rpcUrl, {
      timeout: options.requestTimeoutMs ?? 10_000,
      retryCount: options.retryCount ?? 2,
    }),
  });
}
