export { type AnvilNode, type AnvilOptions, type DevAccount, startAnvil } from './anvil.ts';
export { ChainError, type ChainErrorCode, classifyChainError } from './chain-error.ts';
export { type ChainOptions, custodyAddressOf, resolveTokenOwner } from './chain-options.ts';
export type { RpcOptions } from './clients.ts';
export { type Deployment, deployProvenanceContract } from './deploy.ts';
export { type DevChain, ensureDevChain } from './dev-chain.ts';
export {
  hallmarkProvenanceAbi,
  hallmarkProvenanceBytecode,
  hallmarkProvenanceCompiler,
} from './generated/hallmark-provenance.ts';
export {
  assertMarketplaceUrlTemplate,
  type MarketplaceToken,
  marketplaceUrl,
} from './marketplace-url.ts';
export type { MintedToken, MintRequest, SignedMint, TransferRequest } from './mint.ts';
export { loadMinterKey, MinterKeyError, parseMinterKey } from './minter-key.ts';
export { networkName } from './networks.ts';
export { NftRegistry, type NftRegistryOptions } from './nft-registry.ts';
