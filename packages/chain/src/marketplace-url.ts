import { getAddress } from 'viem';

/**
 * Network slugs as marketplaces spell them in URLs (OpenSea's, which most others copy). Any other
 * chain renders `{chain}` as its numeric id.
 */
const CHAIN_SLUGS: ReadonlyMap<number, string> = new Map([
  [1, 'ethereum'],
  [10, 'optimism'],
  [137, 'matic'],
  [8453, 'base'],
  [42161, 'arbitrum'],
  [11155111, 'sepolia'],
  [84532, 'base_sepolia'],
  [80002, 'amoy'],
]);

const PLACEHOLDER = /\{([^{}]*)\}/g;
const PLACEHOLDERS = new Set(['chain', 'chainId', 'contract', 'tokenId']);

export interface MarketplaceToken {
  chainId: number;
  contract: string;
  tokenId: bigint | string;
}

/**
 * Checks a `marketplaceUrlTemplate` at start-up, so a typo fails the configuration rather than
 * every NFT response. Placeholders: `{chain}`, `{chainId}`, `{contract}`, `{tokenId}`.
 */
export function assertMarketplaceUrlTemplate(template: string): void {
  for (const [, name] of template.matchAll(PLACEHOLDER)) {
    if (!PLACEHOLDERS.has(name ?? '')) {
      throw new Error(
        `marketplace URL template has an unknown placeholder {${name}}; use {chain}, {chainId}, {contract} or {tokenId}`,
      );
    }
  }
  const sample = marketplaceUrlUnchecked(template, {
    chainId: 1,
    contract: '0x0000000000000000000000000000000000000001',
    tokenId: 1n,
  });
  if (!URL.canParse(sample) || !/^https?:$/.test(new URL(sample).protocol)) {
    throw new Error('marketplace URL template does not give an http(s) URL');
  }
}

/** Where a person can look at the token, e.g. `https://opensea.io/assets/{chain}/{contract}/{tokenId}`. */
export function marketplaceUrl(template: string, token: MarketplaceToken): string {
  assertMarketplaceUrlTemplate(template);
  return marketplaceUrlUnchecked(template, token);
}

function marketplaceUrlUnchecked(template: string, token: MarketplaceToken): string {
  const values: Record<string, string> = {
    chain: CHAIN_SLUGS.get(token.chainId) ?? String(token.chainId),
    chainId: String(token.chainId),
    contract: getAddress(token.contract),
    tokenId: String(token.tokenId),
  };
  return template.replace(PLACEHOLDER, (_match, name: string) => values[name] ?? '');
}
