export {
  DEV_API_KEY_NAME,
  type EnsureDevApiKeyOptions,
  type EnsureDevApiKeyResult,
  ensureDevApiKey,
  type GeneratedApiKey,
  generateApiKey,
  hashApiKey,
  issueApiKey,
  isWellFormedApiKey,
  MalformedApiKeyError,
  parseApiKeyPrefix,
  revokeApiKey,
} from './api-keys.ts';
export {
  type AuditChainCheck,
  appendAudit,
  audited,
  type NewAuditEntry,
  verifyAuditChain,
} from './audit.ts';
export {
  type ChangeFollower,
  type ChangeHandlers,
  followChanges,
  JOB_CHANGES_CHANNEL,
  KEY_CHANGES_CHANNEL,
} from './change-notifications.ts';
export { createDatabase, createPrismaClient, type Database } from './client.ts';
export { type CreatedMigration, createMigration } from './create-migration.ts';
export { DatabaseUnreachableError } from './database-unreachable-error.ts';
export {
  DEFAULT_DATABASE_URL,
  databaseNameOf,
  databaseUrlFromEnv,
  redactPassword,
  serverAddressOf,
} from './database-url.ts';
export type {
  ApiKey,
  File,
  IpfsRecord,
  Nft,
  NftTransfer,
  WatermarkJob,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
} from './generated/prisma/client.ts';
export { FileStatus, JobStatus, Prisma, PrismaClient } from './generated/prisma/client.ts';
export {
  collectApiKey,
  createKeyRequest,
  decideKeyRequest,
  findKeyRequestByToken,
  type KeyRequest,
  type KeyRequestDecision,
  listKeyRequests,
  type NewKeyRequest,
  reissueApiKey,
  SealedKeyUnreadableError,
  type SecretSealer,
} from './key-requests.ts';
export {
  applyMigrations,
  type DiffOptions,
  diffSchemaAgainstMigrations,
  ensureDatabase,
  type MigrationsOptions,
  pendingMigrations,
} from './migrations.ts';
export {
  changeOperator,
  endOperatorSessions,
  LastAdminError,
  type OperatorChange,
  resetOperatorPassword,
} from './operator-accounts.ts';
export {
  type AuditEntry,
  createOperator,
  DEV_OPERATOR_EMAIL,
  endSession,
  ensureDevOperator,
  hashSessionToken,
  type Operator,
  operatorOfSession,
  type SignIn,
  type SignInPolicy,
  signIn,
} from './operators.ts';
export { hashPassword, verifyPassword } from './password-hashing.ts';
export * from './statements/index.ts';
