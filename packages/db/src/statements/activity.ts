import type { Sql } from './sql.ts';

// The console's history, kept in PostgreSQL so that a one-machine install needs no metrics stack:
// the worker rolls the rows of finished work up into hours (activity_hours), samples the queues
// (queue_hours), counts each key's work per day (key_usage_days) and says it is alive
// (worker_heartbeats). Every rollup recomputes whole hours or days from the rows and replaces
// them, so running it twice, late, or on two workers at once leaves the same result.

/**
 * Upper bounds (ms) of the duration histogram's buckets; one more bucket holds anything longer.
 * Fixed, so histograms of different hours add up bucket by bucket.
 */
export const DURATION_BUCKETS_MS: readonly number[] = [
  100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000,
];

/** The kinds of work an activity hour counts. */
export const ACTIVITY_KINDS = ['watermark', 'verify', 'webhook', 'mint', 'ipfs'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

// Finished rows of every kind in [$1, $2), with how long each took. Jobs and verifications are
// found through their (status, updated_at) index: a finished row's updated_at is never before
// its finished_at.
const FINISHED_WORK = `
  SELECT 'watermark' AS kind, status::text AS outcome,
         CASE WHEN status = 'failed' THEN coalesce(error_code, 'unknown') ELSE '' END AS code,
         finished_at AS at, extract(epoch FROM finished_at - created_at) * 1000 AS ms
    FROM watermark_jobs
   WHERE status IN ('success', 'failed') AND updated_at >= $1
     AND finished_at >= $1 AND finished_at < $2
  UNION ALL
  SELECT 'verify', status::text,
         CASE WHEN status = 'failed' THEN coalesce(error_code, 'unknown') ELSE '' END,
         finished_at, extract(epoch FROM finished_at - created_at) * 1000
    FROM verifications
   WHERE status IN ('success', 'failed') AND updated_at >= $1
     AND finished_at >= $1 AND finished_at < $2
  UNION ALL
  SELECT 'webhook',
         CASE WHEN status_code BETWEEN 200 AND 299 THEN 'success' ELSE 'failed' END,
         CASE WHEN status_code BETWEEN 200 AND 299 THEN ''
              ELSE coalesce(status_code::text, 'network') END,
         started_at, latency_ms
    FROM webhook_attempts
   WHERE started_at >= $1 AND started_at < $2
  UNION ALL
  SELECT 'mint', 'success', '', minted_at, extract(epoch FROM minted_at - created_at) * 1000
    FROM nfts
   WHERE minted_at >= $1 AND minted_at < $2
  UNION ALL
  SELECT 'ipfs', 'success', '', r.stored_at, extract(epoch FROM r.stored_at - j.created_at) * 1000
    FROM ipfs_records r JOIN watermark_jobs j ON j.id = r.job_id
   WHERE r.stored_at >= $1 AND r.stored_at < $2`;

/**
 * Recomputes every activity hour in [from, to) (both whole UTC hours) from the rows and replaces
 * what was there. Run it inside a transaction, so readers never see an hour half replaced.
 * Returns the rows written.
 */
export async function rollUpActivity(sql: Sql, from: Date, to: Date): Promise<number> {
  await sql.query('DELETE FROM activity_hours WHERE hour >= $1 AND hour < $2', [from, to]);
  const { rowCount } = await sql.query(
    `WITH work AS (${FINISHED_WORK}),
     bucketed AS (
       SELECT date_trunc('hour', at, 'UTC') AS hour, kind, outcome, code,
              width_bucket(greatest(ms, 0)::float8, $3::float8[]) AS bucket, count(*)::int AS n
         FROM work GROUP BY 1, 2, 3, 4, 5)
     INSERT INTO activity_hours (hour, kind, outcome, code, count, durations)
     SELECT g.hour, g.kind, g.outcome, g.code, sum(g.n)::int,
            array(SELECT coalesce(sum(b.n), 0)::int
                    FROM generate_series(0, cardinality($3::float8[])) AS i
                    LEFT JOIN bucketed b
                      ON b.bucket = i AND b.hour = g.hour AND b.kind = g.kind
                     AND b.outcome = g.outcome AND b.code = g.code
                   GROUP BY i ORDER BY i)
       FROM bucketed g
      GROUP BY g.hour, g.kind, g.outcome, g.code`,
    [from, to, DURATION_BUCKETS_MS],
  );
  return rowCount ?? 0;
}

/**
 * Recomputes each key's usage for every UTC day from `fromDay` (a UTC midnight) on and replaces
 * what was there: jobs and verifications asked for, bytes uploaded, NFT jobs accepted (the
 * mint quota's own counter). Run it inside a transaction. Returns the rows written.
 */
export async function rollUpKeyUsage(sql: Sql, fromDay: Date): Promise<number> {
  await sql.query(
    'DELETE FROM key_usage_days WHERE day >= ($1::timestamptz AT TIME ZONE $2)::date',
    [fromDay, 'UTC'],
  );
  const { rowCount } = await sql.query(
    `WITH since AS (SELECT $1::timestamptz AS at, ($1::timestamptz AT TIME ZONE 'UTC')::date AS day),
     usage AS (
       SELECT api_key_id, (created_at AT TIME ZONE 'UTC')::date AS day,
              count(*) AS jobs, 0 AS verifications, 0 AS bytes, 0 AS mints
         FROM watermark_jobs, since WHERE created_at >= since.at GROUP BY 1, 2
       UNION ALL
       SELECT api_key_id, (created_at AT TIME ZONE 'UTC')::date, 0, count(*), 0, 0
         FROM verifications, since
        WHERE api_key_id IS NOT NULL AND created_at >= since.at GROUP BY 1, 2
       UNION ALL
       SELECT api_key_id, (uploaded_at AT TIME ZONE 'UTC')::date, 0, 0, sum(size_bytes), 0
         FROM files, since
        WHERE uploaded_at >= since.at AND size_bytes IS NOT NULL GROUP BY 1, 2
       UNION ALL
       SELECT api_key_id, mint_counts.day, 0, 0, 0, sum(count)
         FROM mint_counts, since WHERE mint_counts.day >= since.day GROUP BY 1, 2)
     INSERT INTO key_usage_days (api_key_id, day, jobs, verifications, bytes, mints)
     SELECT api_key_id, day, sum(jobs)::int, sum(verifications)::int, sum(bytes)::bigint,
            sum(mints)::int
       FROM usage GROUP BY api_key_id, day`,
    [fromDay],
  );
  return rowCount ?? 0;
}

/**
 * Records how deep each queue is at `now` (its `pending` rows, and how long the oldest has
 * waited) into `now`'s hour, keeping the largest sample of the hour.
 */
export async function sampleQueues(sql: Sql, now: Date): Promise<void> {
  await sql.query(
    `INSERT INTO queue_hours (hour, kind, waiting, oldest_age_seconds)
     SELECT date_trunc('hour', $1::timestamptz, 'UTC'), kind, waiting,
            coalesce(greatest(extract(epoch FROM $1::timestamptz - oldest), 0), 0)::int
       FROM (SELECT 'watermark' AS kind, count(*)::int AS waiting, min(created_at) AS oldest
               FROM watermark_jobs WHERE status = 'pending'
             UNION ALL
             SELECT 'verify', count(*)::int, min(created_at)
               FROM verifications WHERE status = 'pending') AS queues
     ON CONFLICT (hour, kind) DO UPDATE
       SET waiting = greatest(queue_hours.waiting, excluded.waiting),
           oldest_age_seconds = greatest(queue_hours.oldest_age_seconds,
                                         excluded.oldest_age_seconds)`,
    [now],
  );
}

export interface WorkerIdentity {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly startedAt: Date;
}

/** Says the worker is alive at `now`. */
export async function recordHeartbeat(sql: Sql, worker: WorkerIdentity, now: Date): Promise<void> {
  await sql.query(
    `INSERT INTO worker_heartbeats (id, host, pid, started_at, last_seen_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (id) DO UPDATE SET last_seen_at = greatest(worker_heartbeats.last_seen_at, $5)`,
    [worker.id, worker.host, worker.pid, worker.startedAt, now],
  );
}

/** When another worker than `exceptId` was last seen alive; null when none is on record. */
export async function lastSeenOtherWorker(sql: Sql, exceptId: string): Promise<Date | null> {
  const { rows } = await sql.query<{ seen: Date | null }>(
    'SELECT max(last_seen_at) AS seen FROM worker_heartbeats WHERE id <> $1',
    [exceptId],
  );
  return rows[0]?.seen ?? null;
}

/** Forgets hours (and workers last seen) before `hoursBefore`, and key days before `daysBefore`. */
export async function pruneActivity(sql: Sql, hoursBefore: Date, daysBefore: Date): Promise<void> {
  await sql.query('DELETE FROM activity_hours WHERE hour < $1', [hoursBefore]);
  await sql.query('DELETE FROM queue_hours WHERE hour < $1', [hoursBefore]);
  await sql.query('DELETE FROM worker_heartbeats WHERE last_seen_at < $1', [hoursBefore]);
  await sql.query(
    `DELETE FROM key_usage_days WHERE day < ($1::timestamptz AT TIME ZONE 'UTC')::date`,
    [daysBefore],
  );
}

/**
 * The `p`-th percentile (0..1) of a duration histogram laid out like DURATION_BUCKETS_MS,
 * interpolated inside its bucket; the open last bucket answers its lower bound. Null when empty.
 */
export function histogramPercentile(histogram: readonly number[], p: number): number | null {
  const total = histogram.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = p * total;
  let below = 0;
  for (const [bucket, n] of histogram.entries()) {
    if (n > 0 && below + n >= rank) {
      const lower = bucket === 0 ? 0 : (DURATION_BUCKETS_MS[bucket - 1] ?? 0);
      const upper = DURATION_BUCKETS_MS[bucket];
      if (upper === undefined) return lower;
      return Math.round(lower + ((upper - lower) * (rank - below)) / n);
    }
    below += n;
  }
  return DURATION_BUCKETS_MS.at(-1) ?? null;
}

/** Adds histograms bucket by bucket. */
export function addHistograms(histograms: readonly (readonly number[])[]): number[] {
  const sum = new Array<number>(DURATION_BUCKETS_MS.length + 1).fill(0);
  for (const histogram of histograms) {
    for (const [bucket, n] of histogram.entries()) sum[bucket] = (sum[bucket] ?? 0) + n;
  }
  return sum;
}
