import type { HallmarkConfig } from '@hallmark/config';
import { CONFIG, PrismaService } from '@hallmark/runtime';
import type { AdminKeyUsage } from '@hallmark/schemas';
import { Inject, Injectable } from '@nestjs/common';
import { ProblemException } from '../problem/problem.exception.ts';

const DAY_MS = 86_400_000;
const DAYS = 30;

const isoDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * A key's usage page: its days from the worker's rollup (`key_usage_days`), every day of the
 * last 30 (zero where it did nothing), and its headroom read live from the quotas' own counters.
 */
@Injectable()
export class AdminKeyUsageService {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    private readonly prisma: PrismaService,
  ) {}

  async usage(prefix: string, now = new Date()): Promise<AdminKeyUsage> {
    const db = this.prisma.client;
    const key = await db.apiKey.findUnique({
      where: { prefix },
      select: { id: true, rateLimitPerMinute: true },
    });
    if (key === null) throw ProblemException.notFound(`No API key ${prefix}.`);
    const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
    const from = new Date(today - (DAYS - 1) * DAY_MS);
    const [days, mintsToday, stored] = await Promise.all([
      db.keyUsageDay.findMany({ where: { apiKeyId: key.id, day: { gte: from } } }),
      db.mintCount.findUnique({
        where: { apiKeyId_day: { apiKeyId: key.id, day: new Date(today) } },
      }),
      db.storageUsage.findUnique({ where: { apiKeyId: key.id } }),
    ]);
    const byDay = new Map(days.map((day) => [day.day.getTime(), day]));
    return {
      prefix,
      days: Array.from({ length: DAYS }, (_, index) => {
        const at = from.getTime() + index * DAY_MS;
        const day = byDay.get(at);
        return {
          day: isoDay(at),
          jobs: day?.jobs ?? 0,
          verifications: day?.verifications ?? 0,
          bytes: Number(day?.bytes ?? 0),
          mints: day?.mints ?? 0,
        };
      }),
      quota: {
        mintsToday: mintsToday?.count ?? 0,
        mintsPerDay: this.config.QUOTA_MINTS_PER_DAY,
        storedBytes: Number(stored?.bytes ?? 0),
        storedBytesLimit: this.config.QUOTA_STORED_BYTES,
        rateLimitPerMinute: key.rateLimitPerMinute ?? this.config.RATE_LIMIT_PER_MINUTE,
      },
    };
  }
}
