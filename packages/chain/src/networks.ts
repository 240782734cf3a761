import { type Chain, defineChain } from 'viem';
import * as knownChains from 'viem/chains';

/** Chain ids whose viem name is shared or unhelpful for a person reading an NFT record. */
const NAME_OVERRIDES: ReadonlyMap<number, string> = new Map([
  [31337, 'Anvil (local)'],
  [1337, 'Localhost'],
]);

/** Chain ids of development nodes: they mine at once, so receipts are polled often. */
export const LOCAL_CHAIN_IDS: ReadonlySet<number> = new Set([31337, 1337]);

let byId: Map<number, Chain> | undefined;

/** viem's chain for an id; several entries share some ids, and the first one exported wins. */
export function knownChain(chainId: number): Chain | undefined {
  if (!byId) {
    byId = new Map();
    for (const candidate of Object.values(knownChains) as unknown[]) {
      if (!isChain(candidate) || byId.has(candidate.id)) continue;
      byId.set(candidate.id, candidate);
    }
  }
  return byId.get(chainId);
}

function isChain(value: unknown): value is Chain {
  return typeof value === 'object' && value !== null && 'id' in value && 'name' in value;
}

/** The network's readable name (`blockchain` in an NFT record): "Ethereum", "Sepolia", … */
export function networkName(chainId: number): string {
  return NAME_OVERRIDES.get(chainId) ?? knownChain(chainId)?.name ?? `Chain ${chainId}`;
}

/**
 * The viem chain used by the clients: viem's own definition when it has one (it carries the
 * chain's fee and receipt formats), always pointed at the configured RPC URL.
 */
export function chainFor(chainId: number, rpcUrl: string): Chain {
  const rpcUrls = { default: { http: [rpcUrl] } };
  const known = knownChain(chainId);
  if (known) return { ...known, name: networkName(chainId), rpcUrls };
  return defineChain({
    id: chainId,
    name: networkName(chainId),
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls,
  });
}
