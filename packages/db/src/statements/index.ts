// The statements of a job's way through the service (authenticate, upload, accept, poll, run),
// as parameterised SQL on the process's pg pool. They run several times per job, and Prisma's
// client costs several times pg's CPU per query (packages/db/README.md); everything else (records, admin, tests) uses the Prisma client, but for the
// statements that change a job's or a verification's status, all of which are here (see
// job-states.ts and verifications.ts), and the reconciler's, which go with them.
export {
  ACTIVITY_KINDS,
  type ActivityKind,
  addHistograms,
  DURATION_BUCKETS_MS,
  histogramPercentile,
  lastSeenOtherWorker,
  pruneActivity,
  recordHeartbeat,
  rollUpActivity,
  rollUpKeyUsage,
  sampleQueues,
  type WorkerIdentity,
} from './activity.ts';
export { findKeyByHash, type KeyCredential, keyStatus, touchKey } from './api-keys.ts';
export {
  type BatchRequestKey,
  completeBatches,
  findBatchByIdempotencyKey,
  insertBatch,
} from './batches.ts';
export {
  countReferencesLost,
  findMissingReferences,
  type MissingReference,
  storeContentReference,
} from './content-references.ts';
export {
  claimUpload,
  completeUpload,
  findFileByStorageKey,
  findOwnedFile,
  insertFile,
  type NewFile,
  recoverStaleUploads,
  releaseUpload,
  type UploadedBytes,
  type UploadFile,
} from './files.ts';
export { insertIpfsRecord, lockIpfsContent, removeIpfsRecords } from './ipfs-content.ts';
export {
  findIssuedByManifest,
  findIssuedByPayload,
  findManifestStorageKey,
  type IssuedRecord,
} from './issued-records.ts';
export {
  type JobLease,
  type LeaseTerms,
  recordOutput,
  releaseLease,
  renewLease,
  type StoredOutput,
} from './job-lease.ts';
export {
  claimJob,
  failJob,
  failUnleasedJob,
  findIdleJobs,
  finishJob,
  type JobClaim,
  markJobRequeued,
  retryFailedJob,
} from './job-states.ts';
export {
  findJobByIdempotencyKey,
  findJobRun,
  findJobView,
  type IdempotentJob,
  insertJob,
  type JobRun,
  type JobViewRow,
  type NewJob,
} from './jobs.ts';
export {
  claimMintSigning,
  forgetMintTransaction,
  type MintRecord,
  recordMintedToken,
  recordMintTransaction,
} from './nft-mint.ts';
export {
  type ClaimedTransfer,
  claimTransfer,
  confirmTransfer,
  failTransfer,
  forgetTransferTransaction,
  recordTransferTransaction,
  releaseTransfer,
  renewTransferLease,
  requestTransfer,
  type TransferView,
} from './nft-transfers.ts';
export { returnMintSlot, storedBytes, takeMintSlot, utcDay } from './quotas.ts';
export {
  type DueObject,
  forgetQueuedDeletions,
  lockDueInputs,
  lockDueOutputs,
  lockDueVerificationInputs,
  lockQueuedDeletions,
  markInputsDeleted,
  markOutputsDeleted,
} from './retention.ts';
export { isUniqueViolation, type Sql } from './sql.ts';
export {
  failVerification,
  findIdleVerifications,
  findVerification,
  findVerificationByIdempotencyKey,
  finishVerification,
  insertFinishedVerification,
  insertVerification,
  markVerificationRequeued,
  type NewVerification,
  startVerification,
  type VerificationAsker,
  type VerificationResult,
  type VerificationRow,
} from './verifications.ts';
export {
  type AttemptOutcome,
  type ClaimedDelivery,
  claimDueDeliveries,
  type DisabledEndpoint,
  fanOutEvents,
  pruneWebhookLog,
  recordAttempt,
  redeliver,
  webhookBacklog,
} from './webhook-deliveries.ts';
export { recordEventTraces } from './webhook-events.ts';
