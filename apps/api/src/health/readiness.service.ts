import { type Logger } from '@hallmark/config';
import { pendingMigrations } from '@hallmark/db';
import { LOGGER, PrismaService } from '@hallmark/runtime';
import type { DependencyStatus, Readiness } from '@hallmark/schemas';
import { Inject, Injectable } from '@nestjs/common';
import { RedisService } from '../redis/redis.service.ts';
import { withTimeout } from './with-timeout.ts';

const PROBE_TIMEOUT_MS = 2_000;
/** Probes run at most once a second per instance, however often load balancers ask. */
const CACHE_MS = 1_000;

type Dependency = keyof Readiness['checks'];

/** What an operator needs to act on a `down`; it goes to the log, never to the anonymous caller. */
interface Finding {
  readonly status: DependencyStatus;
  readonly reason?: string;
}

/**
 * Answers "can this instance serve traffic?" by asking each dependency over the connections the
 * process already holds (the pg pool, the Redis client), all at once, and remembers the answer
 * for a second. The public answer is up or down per dependency; why one is down is logged once
 * when it goes down, and again if the reason changes.
 */
@Injectable()
export class ReadinessService {
  #cached: { readonly at: number; readonly readiness: Promise<Readiness> } | undefined;
  readonly #reasons = new Map<Dependency, string>();
  /** Applied migrations are never unapplied: once current, the schema needs no more queries. */
  #migrationsCurrent = false;

  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly prisma: PrismaService,
    private readonly redis: RedisService,
  ) {}

  check(): Promise<Readiness> {
    const now = Date.now();
    if (this.#cached === undefined || now - this.#cached.at >= CACHE_MS) {
      this.#cached = { at: now, readiness: this.#probeAll() };
    }
    return this.#cached.readiness;
  }

  async #probeAll(): Promise<Readiness> {
    const [postgres, redis, migrations] = await Promise.all([
      this.#probe(() => this.prisma.sql.query('SELECT 1'), 'postgres'),
      this.#probe(() => this.redis.ping(PROBE_TIMEOUT_MS - 100), 'redis'),
      this.#checkMigrations(),
    ]);
    const findings = { postgres, redis, migrations };
    for (const [dependency, finding] of Object.entries(findings)) {
      this.#remember(dependency as Dependency, finding);
    }
    const ready = Object.values(findings).every((finding) => finding.status === 'up');
    return {
      status: ready ? 'ready' : 'not_ready',
      checks: {
        postgres: { status: postgres.status },
        redis: { status: redis.status },
        migrations: { status: migrations.status },
      },
    };
  }

  async #probe(call: () => Promise<unknown>, what: string): Promise<Finding> {
    try {
      await withTimeout(call(), PROBE_TIMEOUT_MS, what);
      return { status: 'up' };
    } catch (error) {
      return { status: 'down', reason: error instanceof Error ? error.message : String(error) };
    }
  }

  async #checkMigrations(): Promise<Finding> {
    if (this.#migrationsCurrent) return { status: 'up' };
    try {
      const pending = await withTimeout(
        pendingMigrations(this.prisma.sql),
        PROBE_TIMEOUT_MS,
        'postgres',
      );
      this.#migrationsCurrent = pending.length === 0;
      return this.#migrationsCurrent
        ? { status: 'up' }
        : { status: 'down', reason: `pending migrations: ${pending.join(', ')}` };
    } catch (error) {
      return { status: 'down', reason: error instanceof Error ? error.message : String(error) };
    }
  }

  #remember(dependency: Dependency, finding: Finding): void {
    const before = this.#reasons.get(dependency);
    if (finding.status === 'up') {
      if (before !== undefined)
        this.logger.info({ dependency }, 'readiness: dependency is up again');
      this.#reasons.delete(dependency);
      return;
    }
    const reason = finding.reason ?? 'unknown';
    if (before !== reason)
      this.logger.warn({ dependency, reason }, 'readiness: dependency is down');
    this.#reasons.set(dependency, reason);
  }
}
