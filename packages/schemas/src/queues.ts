/**
 * The BullMQ queues, one per kind of job. The API enqueues and the worker consumes by these
 * names, so they live in the contract rather than in either app; what each kind carries and how
 * it is retried and run is in platform's job catalogue.
 */
export const QUEUES = {
  watermark: 'watermark',
  verify: 'verify',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
