import { addHistograms, histogramPercentile } from '@hallmark/db';
import { PrismaService } from '@hallmark/runtime';
import type { ActivityRange, AdminActivity, AdminActivityHour } from '@hallmark/schemas';
import { Injectable } from '@nestjs/common';
import { unixSeconds } from '../time/unix-seconds.ts';

const HOUR_MS = 3_600_000;
const HOURS: Readonly<Record<ActivityRange, number>> = { '24h': 24, '7d': 7 * 24 };
/** A worker beats every 30 s: one missed for two minutes is down or stuck. */
const LIVE_MS = 120_000;
/** The job error codes that say the chain (or its wallet) failed a job, and IPFS. */
const CHAIN_CODES = new Set([
  'nft_unavailable',
  'insufficient_funds',
  'mint_reverted',
  'rpc_unreachable',
  'mint_timeout',
]);
const IPFS_CODES = new Set(['ipfs_unreachable']);
type ChartedKind = 'watermark' | 'verify' | 'webhook';
const CHARTED: ReadonlySet<string> = new Set<ChartedKind>(['watermark', 'verify', 'webhook']);

/**
 * The console's charts, read from the hours the worker rolls up (`ActivityRollup`): every hour
 * of the range, zero where nothing happened, so a quiet hour shows as one.
 */
@Injectable()
export class AdminActivityService {
  constructor(private readonly prisma: PrismaService) {}

  async activity(range: ActivityRange, now = new Date()): Promise<AdminActivity> {
    const hours = HOURS[range];
    const last = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
    const from = new Date(last - (hours - 1) * HOUR_MS);
    const db = this.prisma.client;
    const [rows, queues, workers, lastMint, lastStore] = await Promise.all([
      db.activityHour.findMany({ where: { hour: { gte: from } } }),
      db.queueHour.findMany({ where: { hour: { gte: from } } }),
      db.workerHeartbeat.findMany({ orderBy: { lastSeenAt: 'desc' } }),
      db.nft.aggregate({ _max: { mintedAt: true } }),
      db.ipfsRecord.aggregate({ _max: { storedAt: true } }),
    ]);

    const points = new Map<number, AdminActivityHour & { histograms: number[][] }>();
    for (let at = from.getTime(); at <= last; at += HOUR_MS) {
      points.set(at, {
        hour: at / 1000,
        jobs: { success: 0, failed: 0 },
        verifications: { success: 0, failed: 0 },
        webhooks: { success: 0, failed: 0 },
        mints: 0,
        ipfsRecords: 0,
        jobP50Ms: null,
        jobP95Ms: null,
        queueWaiting: 0,
        queueOldestSeconds: 0,
        histograms: [],
      });
    }
    const ended = { watermark: 0, verify: 0, webhook: 0 };
    const failures = new Map<string, { kind: ChartedKind; code: string; count: number }>();
    const jobHistograms: number[][] = [];
    let chainFailures = 0;
    let ipfsFailures = 0;
    for (const row of rows) {
      const point = points.get(row.hour.getTime());
      if (point === undefined) continue;
      const outcome = row.outcome === 'success' ? 'success' : 'failed';
      if (row.kind === 'watermark') {
        point.jobs[outcome] += row.count;
        point.histograms.push(row.durations);
        jobHistograms.push(row.durations);
        if (CHAIN_CODES.has(row.code)) chainFailures += row.count;
        if (IPFS_CODES.has(row.code)) ipfsFailures += row.count;
      }
      if (row.kind === 'verify') point.verifications[outcome] += row.count;
      if (row.kind === 'webhook') point.webhooks[outcome] += row.count;
      if (row.kind === 'mint') point.mints += row.count;
      if (row.kind === 'ipfs') point.ipfsRecords += row.count;
      if (CHARTED.has(row.kind)) {
        const kind = row.kind as ChartedKind;
        ended[kind] += row.count;
        if (outcome === 'failed') {
          const key = `${kind} ${row.code}`;
          const entry = failures.get(key) ?? { kind, code: row.code, count: 0 };
          entry.count += row.count;
          failures.set(key, entry);
        }
      }
    }
    for (const queue of queues) {
      const point = points.get(queue.hour.getTime());
      if (point === undefined) continue;
      // Jobs and verifications wait in separate queues; the chart shows them together.
      point.queueWaiting += queue.waiting;
      point.queueOldestSeconds = Math.max(point.queueOldestSeconds, queue.oldestAgeSeconds);
    }

    const allJobs = addHistograms(jobHistograms);
    const sum = (key: 'mints' | 'ipfsRecords') =>
      [...points.values()].reduce((total, point) => total + point[key], 0);
    return {
      range,
      hours: [...points.values()].map(({ histograms, ...point }) => {
        const merged = addHistograms(histograms);
        return {
          ...point,
          jobP50Ms: histogramPercentile(merged, 0.5),
          jobP95Ms: histogramPercentile(merged, 0.95),
        };
      }),
      failures: [...failures.values()]
        .map((failure) => ({ ...failure, rate: failure.count / (ended[failure.kind] || 1) }))
        .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
      jobP50Ms: histogramPercentile(allJobs, 0.5),
      jobP95Ms: histogramPercentile(allJobs, 0.95),
      chain: {
        successes: sum('mints'),
        failures: chainFailures,
        lastSuccessAt: lastMint._max.mintedAt === null ? null : unixSeconds(lastMint._max.mintedAt),
      },
      ipfs: {
        successes: sum('ipfsRecords'),
        failures: ipfsFailures,
        lastSuccessAt:
          lastStore._max.storedAt === null ? null : unixSeconds(lastStore._max.storedAt),
      },
      workers: workers.map((worker) => ({
        id: worker.id,
        host: worker.host,
        pid: worker.pid,
        startedAt: unixSeconds(worker.startedAt),
        lastSeenAt: unixSeconds(worker.lastSeenAt),
        live: now.getTime() - worker.lastSeenAt.getTime() < LIVE_MS,
      })),
    };
  }
}
