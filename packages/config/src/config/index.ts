// Kept free of decorators and of the logger so that scripts/start.ts can load it straight from
// source (Node's type stripping, the "source" export condition) and reject a bad environment
// before anything is built.

export { ConfigError, loadConfig, loadConfigOrExit } from './load.ts';
export { configSchema, type HallmarkConfig, ipfsGatewayUrl, publicBaseUrl } from './schema.ts';
export { staleUploadBound } from './upload-bounds.ts';
export { videoTools } from './video-tools.ts';
