export { CID } from 'multiformats/cid';
export { encodeJson, jsonCidOf, jsonCodec, parseCid } from './cid.ts';
export { createIpfsStore, type IpfsStoreOptions } from './create-ipfs-store.ts';
export { EmbeddedIpfs } from './embedded-ipfs.ts';
export { IpfsError, type IpfsErrorCode, isIpfsError } from './errors.ts';
export {
  type GatewayRequest,
  type GatewayResponse,
  handleGatewayRequest,
} from './gateway/handle-gateway-request.ts';
export type {
  AddedDirectory,
  AddedFile,
  ContentKind,
  DirectoryEntry,
  IpfsStore,
  PinResult,
  RemotePinState,
  ResolvedContent,
} from './ipfs-store.ts';
export { KuboIpfs, type KuboIpfsOptions } from './kubo-ipfs.ts';
export {
  PinningService,
  type PinningServiceOptions,
  type PinStatusName,
  type RemotePin,
} from './pinning-service.ts';
export { buildIpfsRecord } from './records/ipfs-record.ts';
export { buildNftMetadata, type NftMetadataInput } from './records/nft-metadata.ts';
export type { WatermarkFacts } from './records/watermark-facts.ts';
