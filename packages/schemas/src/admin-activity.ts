import { z } from 'zod';
import { UnixSeconds } from './common/unix-seconds.ts';

// The console's charts: history the worker rolls up into PostgreSQL (activity per UTC hour, each
// key's usage per UTC day), read back by the admin API.

export const ActivityRange = z
  .enum(['24h', '7d'])
  .meta({ description: 'How far back: the last 24 hours or the last 7 days, hour by hour.' });
export type ActivityRange = z.infer<typeof ActivityRange>;

export const AdminActivityQuery = z.object({ range: ActivityRange.default('24h') });

const Outcomes = z.strictObject({ success: z.int(), failed: z.int() });

export const AdminActivityHour = z
  .strictObject({
    hour: UnixSeconds.meta({ description: 'The UTC hour this point covers, by its start.' }),
    jobs: Outcomes.meta({ description: 'Watermark jobs that ended in the hour.' }),
    verifications: Outcomes.meta({ description: 'Verifications that ended in the hour.' }),
    webhooks: Outcomes.meta({ description: 'Webhook delivery attempts made in the hour.' }),
    mints: z.int().meta({ description: 'NFTs minted in the hour.' }),
    ipfsRecords: z.int().meta({ description: 'Records and NFT documents stored on IPFS.' }),
    jobP50Ms: z
      .int()
      .nullable()
      .meta({ description: 'Median time from request to end of the jobs that ended; null: none.' }),
    jobP95Ms: z.int().nullable(),
    queueWaiting: z
      .int()
      .meta({ description: 'The most jobs and verifications waiting at once (sampled).' }),
    queueOldestSeconds: z
      .int()
      .meta({ description: 'How long the oldest waiting one had waited, at most (sampled).' }),
  })
  .meta({ id: 'AdminActivityHour' });
export type AdminActivityHour = z.infer<typeof AdminActivityHour>;

export const AdminFailureCount = z
  .strictObject({
    kind: z.enum(['watermark', 'verify', 'webhook']),
    code: z.string().meta({
      description: "An error code; for webhooks the endpoint's HTTP status, or `network`.",
    }),
    count: z.int(),
    rate: z.number().meta({ description: 'Share of all of this kind that ended, 0 to 1.' }),
  })
  .meta({ id: 'AdminFailureCount' });

export const AdminDependencyActivity = z
  .strictObject({
    successes: z.int(),
    failures: z.int().meta({ description: "Jobs failed for this dependency's error codes." }),
    lastSuccessAt: UnixSeconds.nullable(),
  })
  .meta({ id: 'AdminDependencyActivity' });

export const AdminWorker = z
  .strictObject({
    id: z.string(),
    host: z.string(),
    pid: z.int(),
    startedAt: UnixSeconds,
    lastSeenAt: UnixSeconds,
    live: z.boolean().meta({ description: 'Seen in the last two minutes.' }),
  })
  .meta({ id: 'AdminWorker' });

export const AdminActivity = z
  .strictObject({
    range: ActivityRange,
    hours: z
      .array(AdminActivityHour)
      .meta({ description: 'Every hour of the range, oldest first.' }),
    failures: z.array(AdminFailureCount).meta({ description: 'Most frequent first.' }),
    jobP50Ms: z.int().nullable().meta({ description: 'Over the whole range.' }),
    jobP95Ms: z.int().nullable(),
    chain: AdminDependencyActivity.meta({ description: 'Mints, and jobs failed on the chain.' }),
    ipfs: AdminDependencyActivity.meta({ description: 'IPFS stores, and jobs failed on IPFS.' }),
    workers: z.array(AdminWorker).meta({ description: 'Workers seen in the last 8 days.' }),
  })
  .meta({ id: 'AdminActivity' });
export type AdminActivity = z.infer<typeof AdminActivity>;

export const AdminKeyUsageDay = z
  .strictObject({
    day: z.iso.date().meta({ description: 'The UTC day, `YYYY-MM-DD`.' }),
    jobs: z.int(),
    verifications: z.int(),
    bytes: z.int().meta({ description: 'Bytes uploaded.' }),
    mints: z.int().meta({ description: 'NFT jobs accepted (what the mint quota counts).' }),
  })
  .meta({ id: 'AdminKeyUsageDay' });

export const AdminKeyUsage = z
  .strictObject({
    prefix: z.string(),
    days: z.array(AdminKeyUsageDay).meta({ description: 'The last 30 UTC days, oldest first.' }),
    quota: z.strictObject({
      mintsToday: z.int(),
      mintsPerDay: z.int().meta({ description: 'QUOTA_MINTS_PER_DAY.' }),
      storedBytes: z.int().meta({ description: 'Bytes the key stores now.' }),
      storedBytesLimit: z.int().meta({ description: 'QUOTA_STORED_BYTES.' }),
      rateLimitPerMinute: z.int().meta({ description: "The key's own, else the service's." }),
    }),
  })
  .meta({ id: 'AdminKeyUsage' });
export type AdminKeyUsage = z.infer<typeof AdminKeyUsage>;
