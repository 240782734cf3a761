// The ground floor of every Hallmark process: its configuration, read and validated once at
// start-up, the logger it sets up, and the sealing of secrets kept in the database. Nothing here
// opens a connection or depends on another package of the repository.
export {
  ConfigError,
  configSchema,
  type HallmarkConfig,
  ipfsGatewayUrl,
  loadConfig,
  loadConfigOrExit,
  publicBaseUrl,
  staleUploadBound,
  videoTools,
} from './config/index.ts';
export { redactSecrets } from './log-redaction.ts';
export { createLogger, type Logger } from './logger.ts';
export { openSecret, sealSecret, secretSealer } from './sealed-secret.ts';
export { untilAborted } from './until-aborted.ts';
