import { pendingMigrations } from '@hallmark/db';
import type { HallmarkConfig } from '@hallmark/platform';
import { CONFIG, PrismaService } from '@hallmark/platform';
import type { Readiness } from '@hallmark/schemas';
import { Inject, Injectable } from '@nestjs/common';
import { RedisService } from '../redis/redis.service.ts';
import { withTimeout } from './with-timeout.ts';

const PROBE_TIMEOUT_MS = 2_000;

type Check = Readiness['checks']['postgres'];

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Answers "can this instance serve traffic?" by asking each dependency, all at once. */
@Injectable()
export class ReadinessService {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    private readonly prisma: PrismaService,
    private readonly redis: RedisService,
  ) {}

  async check(): Promise<Readiness> {
    const [postgres, redis, migrations] = await Promise.all([
      this.probe(() => this.prisma.client.$queryRaw`SELECT 1`, 'postgres'),
      this.probe(() => this.redis.ping(PROBE_TIMEOUT_MS - 100), 'redis'),
      this.checkMigrations(),
    ]);
    const ready = [postgres, redis, migrations].every((c) => c.status === 'up');
    return { status: ready ? 'ready' : 'not_ready', checks: { postgres, redis, migrations } };
  }

  private async probe(call: () => Promise<unknown>, what: string): Promise<Check> {
    try {
      await withTimeout(call(), PROBE_TIMEOUT_MS, what);
      return { status: 'up' };
    } catch (error) {
      return { status: 'down', error: describe(error) };
    }
  }

  private async checkMigrations(): Promise<Readiness['checks']['migrations']> {
    try {
      const pending = await withTimeout(
        pendingMigrations(this.config.DATABASE_URL),
        PROBE_TIMEOUT_MS,
        'postgres',
      );
      return pending.length === 0 ? { status: 'up' } : { status: 'down', pending };
    } catch (error) {
      return { status: 'down', error: describe(error) };
    }
  }
}
