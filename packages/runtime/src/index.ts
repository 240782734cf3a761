export { loadServiceKeys, type ServiceKeys } from '@hallmark/service-keys';
export { type ChainReadOptions, chainMintOptions, chainReadOptions } from './chain.ts';
export {
  createMailer,
  type KeyRequestAddresses,
  keyRequestAddresses,
  keyRequestDecisionMessage,
  keyRequestLinks,
  keyRequestMailLink,
  type Mailer,
  type MailMessage,
  OutboxMailer,
} from './mail/index.ts';
export { CoreModule } from './nest/core.module.ts';
export { IpfsNode } from './nest/ipfs-node.ts';
export { NestPinoLogger } from './nest/nest-logger.ts';
export { PrismaService } from './nest/prisma.service.ts';
export { runService } from './nest/run-service.ts';
export { CONFIG, LOGGER, MAILER, OBJECT_STORAGE, SERVICE_KEYS } from './nest/tokens.ts';
export { TrustAnchors } from './nest/trust-anchors.ts';
export { createObjectStorage } from './object-storage.ts';
export {
  JOB_CATALOGUE,
  JOB_KINDS,
  type JobKind,
  type JobKindSpec,
  type JobPayload,
  retryPolicy,
  type WorkerCapacity,
} from './queue/job-catalogue.ts';
export { type JobQueueConfig, JobQueues } from './queue/job-queues.ts';
export {
  bullConnection,
  type RedisClientOptions,
  type RedisConnection,
  type RedisConnectionConfig,
  redisConnection,
  redisKeyPrefix,
} from './redis-connection.ts';
export * from './webhooks/index.ts';
